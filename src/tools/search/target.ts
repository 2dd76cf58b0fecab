import { constants } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";
import { sniffFile } from "../read/sniff.js";
import { describeFsError, FileToolError, specialKind } from "../shared/errors.js";
import { verifyOpened } from "../shared/opened-path.js";
import type { PathContext, ToolPath } from "../shared/workspace-path.js";

/** What a search runs over: a folder rg walks, or one file it reads through an open descriptor. */
export type SearchTarget = { kind: "folder" } | { kind: "file"; handle: FileHandle };

/**
 * Checks a search's path before rg starts, so each problem is a result that says what to do:
 * a missing path reads as it does for read; a FIFO, a device or a socket is refused (rg would
 * wait on it until the timeout); a single file is opened once, checked where it really is, and
 * refused when it is binary (given by name, rg would read all of a 100 GiB sparse file).
 * `glob` lists folders only.
 */
export async function openSearchTarget(
  target: ToolPath,
  ctx: PathContext,
  tool: "grep" | "glob",
): Promise<SearchTarget> {
  const label = target.shown === "." ? `the working directory ${target.real}` : target.shown;
  let st: Awaited<ReturnType<typeof stat>>;
  try {
    st = await stat(target.real);
  } catch (err) {
    throw describeFsError(err, label);
  }
  if (st.isDirectory()) return { kind: "folder" };
  if (!st.isFile()) {
    throw new FileToolError(
      `${label} is ${specialKind(st)}, not a regular file: ${tool} searches files and folders only`,
    );
  }
  if (tool === "glob") {
    throw new FileToolError(
      `${label} is a file, not a folder: glob lists the files of a folder (give the folder, or read the file)`,
    );
  }
  const handle = await openFile(target, label, ctx);
  try {
    const sniffed = await sniffFile(handle, (await handle.stat()).size);
    if (sniffed.kind !== "text") {
      const what = sniffed.kind === "binary" ? sniffed.type : sniffed.mimeType;
      throw new FileToolError(`${label} is a binary file: ${what}; grep searches text files only`);
    }
    return { kind: "file", handle };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/**
 * The open file of a single-file search, for another rg run. Linux gives each open of /dev/fd/N
 * its own offset, so the same descriptor serves again; elsewhere /dev/fd/N shares the offset
 * (at the end after a run), so the file is opened and checked anew.
 */
export async function againOpen(
  scope: { handle: FileHandle },
  target: ToolPath,
  ctx: PathContext,
): Promise<{ handle: FileHandle; owned: boolean }> {
  if (process.platform === "linux") return { handle: scope.handle, owned: false };
  return { handle: await openFile(target, target.shown, ctx), owned: true };
}

/** Opens a regular file without waiting on a FIFO, and checks it where it really is. */
async function openFile(target: ToolPath, label: string, ctx: PathContext): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(target.real, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw describeFsError(err, label);
  }
  try {
    if (!(await handle.stat()).isFile()) {
      throw new FileToolError(`${label} is not a regular file: grep searches files and folders only`);
    }
    await verifyOpened(handle, target, ctx);
    return handle;
  } catch (err) {
    await handle.close();
    throw err;
  }
}
