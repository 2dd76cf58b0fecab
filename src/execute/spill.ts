import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { chmod, type FileHandle, lstat, mkdir, mkdtemp, open, rename, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** Default parent of session directories: per user, so two users never share one. */
export function defaultSpillBase(): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : "user";
  return path.join(tmpdir(), `toolplane-${uid}`);
}

/**
 * Where results over the inline limit go: one directory per session (mode 0700), files 0600,
 * each written under a temporary name and renamed into place, so a reader never sees half a file.
 * The directory is created on the first spill only.
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
    const dir = await this.directory();
    this.seq += 1;
    const name = `${String(this.seq).padStart(4, "0")}-${tool.replace(/[^a-zA-Z0-9_-]/g, "_")}.txt`;
    const final = path.join(dir, name);
    const temp = path.join(dir, `.${name}.${randomBytes(4).toString("hex")}.partial`);
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
    const handle = await open(temp, flags, 0o600);
    return new SpillWriter(handle, temp, final);
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
    return mkdtemp(path.join(this.base, `${label}-`));
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
