/** Whether a file or folder with this owner is this process's user's (always, where there are no uids). */
export function ownedByMe(uid: number): boolean {
  return typeof process.getuid !== "function" || process.getuid() === uid;
}
