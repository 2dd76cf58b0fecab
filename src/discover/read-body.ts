import { constants, type Dirent } from "node:fs";
import { open, opendir } from "node:fs/promises";
import path from "node:path";
import { cmp } from "../util/compare.js";

/** A skill body longer than this is cut where it is loaded (the skill tool, a served prompt). */
export const SKILL_BODY_MAX_BYTES = 1024 * 1024;

export interface SkillFileText {
  /** The file's text up to the limit (cut on a character boundary). */
  text: string;
  /** The file's size in bytes. */
  size: number;
  /** True when the file is larger than the limit and only its head is in `text`. */
  cut: boolean;
}

/**
 * A skill file's text, for its body. Skill folders are untrusted input: the file is opened
 * non-blocking and checked on the open descriptor to be a regular file (a FIFO put in place of
 * SKILL.md after discovery must not hang the call), and at most `maxBytes` are read.
 */
export async function readSkillFile(file: string, maxBytes = SKILL_BODY_MAX_BYTES): Promise<SkillFileText> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error(`${file} is not a regular file; a skill file must be a plain file`);
    const buf = Buffer.alloc(Math.min(info.size, maxBytes));
    let length = 0;
    while (length < buf.length) {
      const { bytesRead } = await handle.read(buf, length, buf.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    const cut = info.size > maxBytes;
    let end = length;
    // a cut never splits a UTF-8 sequence (the decoder would show U+FFFD for its head)
    if (cut) while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
    return { text: buf.toString("utf8", 0, end), size: info.size, cut };
  } finally {
    await handle.close();
  }
}

/** Entries a bundle listing visits at most: a bundle holding a whole dependency tree stays cheap. */
export const BUNDLE_WALK_MAX_ENTRIES = 20_000;

export interface BundleListing {
  /** The first `max` files by path (relative, "/"-separated), sorted. */
  files: string[];
  /** Files found beyond `files`. */
  more: number;
  /** True when the walk stopped at BUNDLE_WALK_MAX_ENTRIES: `more` is then a lower bound. */
  partial: boolean;
}

/**
 * The files below a bundle folder except the skill file itself, the first `max` by path. The walk
 * streams (opendir) and keeps only the `max` smallest names, so memory does not grow with the
 * bundle.
 */
export async function listBundle(
  dir: string,
  skillFile: string,
  max: number,
  /** Only files whose relative path passes are counted and kept (a completion's prefix). */
  accept?: (rel: string) => boolean,
): Promise<BundleListing> {
  const kept: string[] = [];
  let found = 0;
  let visited = 0;
  let partial = false;
  // a walk of our own: Node 20's opendir({recursive}) stops after its first batch of entries
  const pending = [dir];
  walk: while (pending.length > 0) {
    const folder = pending.pop()!;
    let handle: Awaited<ReturnType<typeof opendir>>;
    try {
      handle = await opendir(folder);
    } catch {
      continue; // gone, or not readable: its files are not listed
    }
    try {
      for await (const e of handle as AsyncIterable<Dirent>) {
        if (++visited > BUNDLE_WALK_MAX_ENTRIES) {
          partial = true;
          break walk;
        }
        const full = path.join(folder, e.name);
        if (e.isDirectory()) pending.push(full);
        if ((!e.isFile() && !e.isSymbolicLink()) || full === skillFile) continue;
        const rel = path.relative(dir, full).split(path.sep).join("/");
        if (accept && !accept(rel)) continue;
        found++;
        insertBounded(kept, rel, max);
      }
    } finally {
      await handle.close().catch(() => {});
    }
  }
  return { files: kept, more: found - kept.length, partial };
}

/** Inserts `name` into the sorted list, keeping at most `max` (the smallest). */
function insertBounded(list: string[], name: string, max: number): void {
  if (max <= 0) return;
  if (list.length === max && cmp(name, list[max - 1]!) >= 0) return;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cmp(list[mid]!, name) < 0) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, name);
  if (list.length > max) list.pop();
}
