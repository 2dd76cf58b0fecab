import { fstatSync, readlinkSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { FileToolError } from "./errors.js";
import { insideBoundary, type PathContext, type ToolPath } from "./workspace-path.js";

/** An open file: a FileHandle, or a descriptor opened synchronously. */
export interface OpenFile {
  readonly fd: number;
}

/**
 * Checks an open file before a byte of it is read: where it really is, as the kernel has it, must
 * be inside the boundary and allowed by the permissions. Resolving a path and then opening it
 * leaves a gap in which a folder on the way can be swapped for a symlink to anywhere; checking
 * the opened descriptor closes it. Returns the file's real path.
 */
export async function verifyOpened(fh: OpenFile, target: ToolPath, ctx: PathContext): Promise<string> {
  const real = await openedPath(fh, target);
  if (!insideBoundary(real, ctx)) {
    throw new FileToolError(
      `${target.shown} led outside the workspace when it was opened (a symlink on the way changed): nothing was read`,
    );
  }
  if (ctx.paths) {
    const [verdict] = ctx.paths.check([real]);
    const allowed = verdict === "allow" || (verdict === "ask" && (await ctx.paths.approve(real)));
    if (!allowed) {
      throw new FileToolError(
        `${target.shown} is ${real} once opened, and the permissions ${verdict === "deny" ? "deny it" : "need an approval that was not given"}: nothing was read`,
      );
    }
  }
  return real;
}

/** Whether an open file passes the same checks as verifyOpened (for files a search may skip). */
export async function openedAllowed(fh: OpenFile, target: ToolPath, ctx: PathContext): Promise<boolean> {
  try {
    await verifyOpened(fh, target, ctx);
    return true;
  } catch (err) {
    if (err instanceof FileToolError) return false;
    throw err;
  }
}

/**
 * The real path of an open file. Linux names it at /proc/self/fd/N. Elsewhere the path is resolved
 * again after the open and must lead to the very file that is open (same device and inode), or the
 * open is refused as changed.
 */
async function openedPath(fh: OpenFile, target: ToolPath): Promise<string> {
  // synchronous: both only look at the open descriptor (a search checks hundreds of files, and a
  // thread-pool round trip each costs more than the call)
  const st = fstatSync(fh.fd, { bigint: true });
  if (st.nlink === 0n && st.isFile()) {
    throw new FileToolError(`${target.shown} was deleted while it was opened: read it again`);
  }
  try {
    return readlinkSync(`/proc/self/fd/${fh.fd}`);
  } catch {
    // no /proc (macOS, a container without it): fall through
  }
  let again: string;
  try {
    again = await realpath(target.real);
    const now = await stat(again, { bigint: true });
    if (now.dev === st.dev && now.ino === st.ino) return again;
  } catch {
    // gone or changed: refused below
  }
  throw new FileToolError(`${target.shown} changed while it was opened: read it again`);
}
