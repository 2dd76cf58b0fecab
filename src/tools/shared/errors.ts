import type { Stats } from "node:fs";

/** A failure the model can act on: the message says what went wrong and what to do instead. */
export class FileToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FileToolError";
  }
}

/** Turns a filesystem errno into one line that says what to do. */
export function describeFsError(err: unknown, shown: string): FileToolError {
  // the wording is shared by read, grep and glob: one missing path reads the same from each
  const code = (err as NodeJS.ErrnoException)?.code;
  switch (code) {
    case "ENOENT":
      return new FileToolError(`${shown} does not exist: check the path (glob can find files by name)`);
    case "EACCES":
    case "EPERM":
      return new FileToolError(`${shown} cannot be read: permission denied`);
    case "ELOOP":
      return new FileToolError(`${shown} is a symlink loop: it never reaches a real file`);
    case "ENOTDIR":
      return new FileToolError(`${shown}: a part of the path is a file, not a folder`);
    case "EISDIR":
      return new FileToolError(`${shown} is a folder`);
    default:
      return new FileToolError(`${shown}: ${(err as Error)?.message ?? String(err)}`);
  }
}

/** What a path that is neither a file nor a folder is, for the error that refuses it. */
export function specialKind(
  st: Pick<Stats, "isFIFO" | "isCharacterDevice" | "isBlockDevice" | "isSocket">,
): string {
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "a special file";
}
