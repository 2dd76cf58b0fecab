import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readlink, rename, unlink } from "node:fs/promises";
import path from "node:path";
import type { FileSnapshot, ToolContext } from "../../declare/types.js";
import { isInside, PathError, resolvePath } from "../../permissions/paths.js";
import { describeFsError, FileToolError } from "../shared/errors.js";
import { EDIT_MAX_BYTES, sha256, versionOf } from "../shared/file-state.js";
import { showPath } from "../shared/workspace-path.js";

// The part edit and write share: where the file is, whether the model saw this version of it,
// and replacing it atomically without following a symlink out of the workspace.

export interface WriteTarget {
  /** Real path (symlinks followed as far as they exist): the file that is replaced. */
  real: string;
  /** As the model is shown it. */
  shown: string;
}

type Ctx = Pick<ToolContext, "cwd" | "workspace" | "session">;

/** Resolves a path to write and keeps it inside the workspace (the permission layer checks too). */
export function writeTarget(input: string, ctx: Ctx, tool: string): WriteTarget {
  let resolved: ReturnType<typeof resolvePath>;
  try {
    resolved = resolvePath(input, ctx.cwd, ctx.workspace);
  } catch (err) {
    if (err instanceof PathError) throw new FileToolError(err.message);
    throw err;
  }
  if (!resolved.inside) {
    throw new FileToolError(
      `${input} is outside the workspace ${ctx.workspace}: ${tool} changes files inside it only`,
    );
  }
  return { real: resolved.real, shown: showPath(resolved.absolute, ctx.cwd) };
}

export interface CurrentFile {
  bytes: Buffer;
  /** File mode bits to keep. */
  mode: number;
}

/**
 * Opens the file as it is now, refusing anything the model did not read in this session or that
 * changed since (compared by content: a file touched but unchanged is still the one it read).
 * Returns undefined when the file does not exist.
 */
export async function currentFile(
  target: WriteTarget,
  ctx: Ctx,
  tool: string,
): Promise<CurrentFile | undefined> {
  let fh: FileHandle;
  try {
    // O_NOFOLLOW: a symlink put in place since the path was resolved is refused, not followed
    fh = await open(target.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP")
      throw new FileToolError(`${target.shown} became a symlink after it was checked: read it again`);
    throw describeFsError(err, target.shown);
  }
  try {
    await sameFileAsResolved(fh, target);
    const st = await fh.stat({ bigint: true });
    if (st.isDirectory()) throw new FileToolError(`${target.shown} is a folder: ${tool} changes files`);
    if (!st.isFile())
      throw new FileToolError(`${target.shown} is not a regular file: ${tool} changes regular files only`);
    const seen = ctx.session?.files.get(target.real);
    if (seen === undefined) {
      throw new FileToolError(
        `${target.shown} has not been read in this session: read it first, then call ${tool} again`,
      );
    }
    const size = Number(st.size);
    if (size > EDIT_MAX_BYTES || seen.hash === undefined) {
      throw new FileToolError(
        `${target.shown} is ${size} bytes, over the ${EDIT_MAX_BYTES} bytes ${tool} takes: change it with bash (sed, patch) instead`,
      );
    }
    const bytes = Buffer.alloc(size);
    let got = 0;
    while (got < size) {
      const { bytesRead } = await fh.read(bytes, got, size - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    const now = bytes.subarray(0, got);
    if (sha256(now) !== seen.hash) {
      throw new FileToolError(
        `${target.shown} changed on disk since you last read it (by you through bash, or by someone else): ` +
          `read it again, then make the change on what it holds now`,
      );
    }
    return { bytes: now, mode: Number(st.mode) & 0o7777 };
  } finally {
    await fh.close();
  }
}

/** The opened descriptor is the file that was resolved (Linux: /proc/self/fd), so no swap led elsewhere. */
async function sameFileAsResolved(fh: FileHandle, target: WriteTarget): Promise<void> {
  if (process.platform !== "linux") return;
  let actual: string;
  try {
    actual = await readlink(`/proc/self/fd/${fh.fd}`);
  } catch {
    return; // no /proc: O_NOFOLLOW and the rename below are the guard
  }
  if (actual !== target.real) {
    throw new FileToolError(`${target.shown} moved while it was being opened (now ${actual}): read it again`);
  }
}

/**
 * Replaces (or creates) the file atomically: a temp file in the same folder, written, synced and
 * renamed over the target, so no reader sees half a file and a crash leaves the old one. The temp
 * file is created O_EXCL|O_NOFOLLOW and its real location is checked before anything is written,
 * and the folder must still be inside the workspace. Returns what read would record for it.
 */
export async function replaceFile(
  target: WriteTarget,
  data: Buffer,
  mode: number | undefined,
  workspace: string,
): Promise<FileSnapshot> {
  const dir = path.dirname(target.real);
  await mkdir(dir, { recursive: true }).catch((err) => {
    throw describeFsError(err, path.dirname(target.shown));
  });
  const root = resolvePath(workspace, workspace, workspace).real;
  const tmp = path.join(dir, `.${path.basename(target.real)}.${randomBytes(6).toString("hex")}.tmp`);
  let fh: FileHandle;
  try {
    fh = await open(
      tmp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
  } catch (err) {
    throw describeFsError(err, target.shown);
  }
  let renamed = false;
  try {
    if (process.platform === "linux") {
      const actual = await readlink(`/proc/self/fd/${fh.fd}`).catch(() => tmp);
      if (actual !== tmp || !isInside(path.dirname(actual), root)) {
        throw new FileToolError(
          `the folder of ${target.shown} moved out of the workspace while it was written`,
        );
      }
    }
    await fh.writeFile(data);
    // created 0600 so nobody reads it half-written; then the old file's mode, or the umask default
    await fh.chmod(mode ?? 0o666 & ~process.umask());
    await fh.datasync();
    const ino = (await fh.stat({ bigint: true })).ino;
    await fh.close();
    await rename(tmp, target.real);
    renamed = true;
    const st = await lstat(target.real, { bigint: true });
    if (st.ino !== ino)
      throw new FileToolError(`${target.shown} was replaced by something else while it was written`);
    return { mtimeMs: Number(st.mtimeMs), size: Number(st.size), hash: sha256(data), version: versionOf(st) };
  } catch (err) {
    await fh.close().catch(() => {});
    if (!renamed) await unlink(tmp).catch(() => {});
    if (err instanceof FileToolError) throw err;
    throw describeFsError(err, target.shown);
  }
}
