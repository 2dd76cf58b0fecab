import { accessSync, constants, statSync } from "node:fs";

/** Whether `p` is a directory, following symlinks; false when it is missing or cannot be looked at. */
export function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Whether `p` is a `kind` this process may execute (a program it can run, a folder it can search),
 * following symlinks; false when it is missing or cannot be looked at.
 */
export function executableAs(p: string, kind: "file" | "directory"): boolean {
  try {
    const st = statSync(p);
    if (kind === "file" ? !st.isFile() : !st.isDirectory()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
