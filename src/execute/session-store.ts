// A session's state kept on disk between processes, so `toolplane call --session ID` can read a
// file in one call and edit it in the next. The state is small (stamps of the files read, tools'
// small values, the deferred tools loaded); it lives under $TOOLPLANE_HOME/sessions, the user's own.
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { LRUCache } from "lru-cache";
import type { FileSnapshot, ToolSession } from "../declare/types.js";

/** What a session ID may be: it names a file, so no separators and no dot-dot. */
export const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** A saved session larger than this is not read (1,000 file stamps take about 300 KiB). */
export const SAVED_SESSION_MAX_BYTES = 4 * 1024 * 1024;

export interface SavedSession {
  version: 1;
  /** Real path -> the version of the file the session last read or wrote, oldest first. */
  files: Array<[string, FileSnapshot]>;
  /** Tools' small values (the shell's directory, ...), those that are JSON. */
  values: Record<string, unknown>;
  /** Deferred tools tool_search (or a person) loaded, in load order. */
  loaded: string[];
}

export function sessionPath(home: string, id: string): string {
  if (!SESSION_ID.test(id) || id.includes(".."))
    throw new Error(`session "${id}": use letters, digits, _, . and - (up to 64, not starting with . or -)`);
  return path.join(home, "sessions", `${id}.json`);
}

/** The tool session as plain data (least recently used file first, so a restore keeps the order). */
export function exportToolSession(session: ToolSession): Pick<SavedSession, "files" | "values"> {
  const files: Array<[string, FileSnapshot]> = [];
  if (session.files instanceof LRUCache)
    for (const [k, v] of (session.files as LRUCache<string, FileSnapshot>).rentries() as Iterable<
      [string, FileSnapshot]
    >)
      files.push([k, v]);
  const values: Record<string, unknown> = {};
  for (const [k, v] of session.values) if (isJson(v)) values[k] = v;
  return { files, values };
}

export function importToolSession(session: ToolSession, saved: Pick<SavedSession, "files" | "values">): void {
  for (const [k, v] of saved.files) session.files.set(k, v);
  for (const [k, v] of Object.entries(saved.values)) session.values.set(k, v);
}

/** The saved session, or undefined when there is none yet; throws, saying what to do, when it is unreadable. */
export async function readSession(file: string): Promise<SavedSession | undefined> {
  let text: string;
  try {
    const st = await stat(file);
    if (!st.isFile() || st.size > SAVED_SESSION_MAX_BYTES)
      throw new Error(`is not a regular file of at most ${SAVED_SESSION_MAX_BYTES} bytes`);
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`${file}: ${(error as Error).message}; remove it to start the session afresh`);
  }
  const saved = parseSaved(text);
  if (!saved)
    throw new Error(`${file} is not a saved toolplane session; remove it to start the session afresh`);
  return saved;
}

/** Writes the session atomically, readable by the user alone. */
export async function writeSession(file: string, saved: SavedSession): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(saved), { mode: 0o600 });
  await rename(tmp, file);
}

/** Removes saved sessions not used for `maxAgeHours` (as spill directories expire); returns how many. */
export async function sweepSessions(home: string, maxAgeHours: number): Promise<number> {
  const dir = path.join(home, "sessions");
  const cutoff = Date.now() - maxAgeHours * 3_600_000;
  let removed = 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!name.endsWith(".json")) continue;
    const file = path.join(dir, name);
    try {
      if ((await stat(file)).mtimeMs < cutoff) {
        await rm(file, { force: true });
        removed++;
      }
    } catch {
      // gone meanwhile
    }
  }
  return removed;
}

function parseSaved(text: string): SavedSession | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== "object" || v === null) return undefined;
  const o = v as Record<string, unknown>;
  if (o.version !== 1 || !Array.isArray(o.files) || !Array.isArray(o.loaded)) return undefined;
  if (typeof o.values !== "object" || o.values === null || Array.isArray(o.values)) return undefined;
  const files: Array<[string, FileSnapshot]> = [];
  for (const f of o.files) {
    if (!Array.isArray(f) || typeof f[0] !== "string" || !isSnapshot(f[1])) return undefined;
    files.push([f[0], f[1]]);
  }
  if (!o.loaded.every((n) => typeof n === "string")) return undefined;
  return { version: 1, files, values: o.values as Record<string, unknown>, loaded: o.loaded as string[] };
}

function isSnapshot(v: unknown): v is FileSnapshot {
  if (typeof v !== "object" || v === null) return false;
  const s = v as Record<string, unknown>;
  return (
    typeof s.mtimeMs === "number" &&
    typeof s.size === "number" &&
    (s.hash === undefined || typeof s.hash === "string") &&
    (s.version === undefined || typeof s.version === "string")
  );
}

function isJson(v: unknown): boolean {
  if (v === null || ["string", "number", "boolean"].includes(typeof v)) return true;
  if (Array.isArray(v)) return v.every(isJson);
  if (typeof v === "object") return Object.values(v as object).every(isJson);
  return false;
}
