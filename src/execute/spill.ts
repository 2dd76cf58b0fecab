import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import {
  chmod,
  type FileHandle,
  lstat,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  rename,
  rm,
  unlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ownedByMe } from "../util/owned-by-me.js";

/** Default parent of session directories: per user, so two users never share one. */
export function defaultSpillBase(): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : "user";
  return path.join(tmpdir(), `toolplane-${uid}`);
}

/**
 * Where results over the inline limit go: one directory per session (mode 0700), files 0600,
 * each written under a temporary name and renamed into place, so a reader never sees half a file.
 * The directory is created on the first spill only, holds a file naming the process that owns
 * it, and is removed by remove() (Toolplane.close) or, once its owner is gone, by a later
 * session's sweep() when it is older than results.spillMaxAgeHours.
 */
export class SpillStore {
  private dir: Promise<string> | undefined;
  private seq = 0;

  constructor(
    readonly base: string,
    readonly session: string,
  ) {}

  /** The session directory, created (0700) on first use. */
  directory(): Promise<string> {
    this.dir ??= this.createDir();
    return this.dir;
  }

  /** The session directory if it has been created (for permission roots); never creates it. */
  async existing(): Promise<string | undefined> {
    return this.dir;
  }

  /** A streaming writer for one result; nothing is visible under the final name until commit. */
  async create(tool: string): Promise<SpillWriter> {
    this.seq += 1;
    const name = `${String(this.seq).padStart(4, "0")}-${tool.replace(/[^a-zA-Z0-9_-]/g, "_")}.txt`;
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
    for (let attempt = 0; ; attempt++) {
      const dir = await this.directory();
      const final = path.join(dir, name);
      const temp = path.join(dir, `.${name}.${randomBytes(4).toString("hex")}.partial`);
      try {
        return new SpillWriter(await open(temp, flags, 0o600), temp, final);
      } catch (error) {
        // the directory was removed under a live session (by hand): make a new one, once
        if ((error as NodeJS.ErrnoException).code !== "ENOENT" || attempt > 0) throw error;
        this.dir = undefined;
      }
    }
  }

  /** Removes this session's directory and every file in it (a later spill makes a new one). */
  async remove(): Promise<void> {
    const dir = await this.dir?.catch(() => undefined);
    this.dir = undefined;
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  }

  /**
   * Removes other sessions' directories under the base that are older than `maxAgeHours` and
   * whose owning process is gone. Only directories this store makes are touched (its name
   * pattern, owned by this user, not a symlink). Returns how many were removed; never throws.
   */
  async sweep(maxAgeHours: number): Promise<number> {
    let names: string[];
    try {
      const base = await lstat(this.base);
      if (!base.isDirectory() || !ownedByMe(base.uid)) return 0;
      if (await sweptLately(this.base, maxAgeHours)) return 0;
      names = await readdir(this.base);
    } catch {
      return 0;
    }
    const own = await this.dir?.catch(() => undefined);
    const cutoff = Date.now() - maxAgeHours * 3_600_000;
    let removed = 0;
    for (const name of names) {
      const dir = path.join(this.base, name);
      if (!SESSION_DIR.test(name) || dir === own) continue;
      try {
        const st = await lstat(dir);
        if (!st.isDirectory() || !ownedByMe(st.uid) || st.mtimeMs > cutoff) continue;
        // a folder without our marker is removed only from the default base, which is ours alone
        // (folders from before the marker); in a configured base it may be someone's own folder
        const owner = await ownerOf(dir);
        if (owner === "none" ? this.base !== defaultSpillBase() : owner === "alive") continue;
        await rm(dir, { recursive: true, force: true });
        removed++;
      } catch {
        // gone already, or not ours to remove: leave it
      }
    }
    return removed;
  }

  /** Writes a whole text at once (atomic, 0600); returns its path. */
  async writeText(tool: string, text: string): Promise<string> {
    const writer = await this.create(tool);
    try {
      await writer.write([Buffer.from(text, "utf8")]);
      return await writer.commit();
    } catch (error) {
      await writer.discard();
      throw error;
    }
  }

  private async createDir(): Promise<string> {
    await mkdir(this.base, { recursive: true, mode: 0o700 });
    const info = await lstat(this.base);
    const uid = typeof process.getuid === "function" ? process.getuid() : info.uid;
    // a shared temp dir: refuse a base someone else owns or swapped for a symlink
    if (!info.isDirectory() || info.isSymbolicLink() || info.uid !== uid) {
      throw new Error(
        `spill directory ${this.base} is not a directory owned by this user; set results.spillDir`,
      );
    }
    if ((info.mode & 0o077) !== 0) await chmod(this.base, 0o700);
    const label = this.session.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 40) || "session";
    const dir = await mkdtemp(path.join(this.base, `${label}-`));
    await writeFile(path.join(dir, OWNER_FILE), `${process.pid}\n`, { mode: 0o600 });
    return dir;
  }
}

/**
 * A base some session swept within the last hour (or a sixtieth of the age limit, if less) is not
 * swept again: every session, and every one-shot CLI command, opens one, and a sweep reads each
 * folder of the base (97 folders here cost a `toolplane call` 7 ms). What it would find is at most
 * that much older than the limit. `.swept`'s time says when; writing it is best effort.
 */
async function sweptLately(base: string, maxAgeHours: number): Promise<boolean> {
  const marker = path.join(base, SWEPT_FILE);
  const interval = Math.min(3_600_000, (maxAgeHours * 3_600_000) / 60);
  try {
    const st = await lstat(marker);
    if (st.isFile() && ownedByMe(st.uid) && Date.now() - st.mtimeMs < interval) return true;
  } catch {
    // never swept
  }
  try {
    await rm(marker, { force: true });
    await writeFile(marker, "", { mode: 0o600, flag: "wx" });
  } catch {
    // another session marks it meanwhile, or the base is read-only: sweep all the same
  }
  return false;
}

const SWEPT_FILE = ".swept";

/** Names the process that owns a session directory, so no sweep removes a live session's files. */
const OWNER_FILE = ".owner";

/** What createDir names a session directory: a label, a dash, mkdtemp's six characters. */
const SESSION_DIR = /^[a-zA-Z0-9_-]{1,40}-[a-zA-Z0-9]{6}$/;

/** Whether a session folder's owning process still runs; "none" when it has no marker. */
async function ownerOf(dir: string): Promise<"alive" | "gone" | "none"> {
  let pid: number;
  try {
    pid = Number((await readFile(path.join(dir, OWNER_FILE), "utf8")).trim());
  } catch {
    return "none";
  }
  if (!Number.isInteger(pid) || pid <= 0) return "gone";
  if (pid === process.pid) return "alive";
  try {
    process.kill(pid, 0);
    return "alive";
  } catch (error) {
    // EPERM: the process exists, owned by someone else
    return (error as NodeJS.ErrnoException).code === "EPERM" ? "alive" : "gone";
  }
}

export class SpillWriter {
  private closed = false;

  constructor(
    private readonly handle: FileHandle,
    private readonly temp: string,
    readonly path: string,
  ) {}

  async write(chunks: Buffer[]): Promise<void> {
    if (chunks.length === 1) await this.handle.write(chunks[0]!);
    else if (chunks.length > 1) await this.handle.writev(chunks);
  }

  /** Closes and renames into place; returns the final path. */
  async commit(): Promise<string> {
    if (!this.closed) {
      this.closed = true;
      await this.handle.close();
    }
    await rename(this.temp, this.path);
    return this.path;
  }

  async discard(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      await this.handle.close().catch(() => {});
    }
    await unlink(this.temp).catch(() => {});
  }
}
