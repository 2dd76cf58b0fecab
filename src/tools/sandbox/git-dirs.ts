import { lstatSync, readFileSync } from "node:fs";
import path from "node:path";
import { realpathOfLongestPrefix } from "../../permissions/paths.js";

/**
 * The repository folders outside a root that git needs to work in it: a worktree's or a
 * submodule's `.git` is a file (`gitdir: PATH`) naming its own folder elsewhere, and that folder's
 * `commondir` names the main repository's `.git`, where objects, refs and config live. The
 * sandbox shows them read-only, so `git status` and `git log` work in a worktree as in a clone (a
 * commit there still fails: the main repository is not the sandbox's to write). Reads a few small
 * files per root; a root with a `.git` folder, or none, needs nothing.
 *
 * The `.git` file is the workspace's (an unpacked archive can hold any): `gitdir: /` or
 * `gitdir: /home/me` would show that folder. So a folder is shown only when git's own link back
 * says it belongs to this root: a worktree's folder holds a `gitdir` file naming the root's
 * `.git` and lies in `worktrees/` of the folder its `commondir` names; a submodule's folder sets
 * `core.worktree` to the root. Anything else shows nothing (git fails there: fail closed).
 */
export function gitDirsOutside(root: string): string[] {
  const dotGit = path.join(root, ".git");
  try {
    const st = lstatSync(dotGit);
    if (!st.isFile() || st.size > 4096) return [];
    const named = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"))?.[1];
    if (named === undefined) return [];
    const gitdir = path.resolve(root, named);
    const common = smallFile(path.join(gitdir, "commondir"))?.trim();
    if (common === undefined || common === "") {
      // a submodule's folder has no commondir: it is its own repository, and names its work tree
      const config = smallFile(path.join(gitdir, "config")) ?? "";
      const worktree = /^\s*worktree\s*=\s*(.+?)\s*$/m.exec(config)?.[1];
      return worktree !== undefined && sameFile(path.resolve(gitdir, worktree), root) ? [gitdir] : [];
    }
    const commonDir = path.resolve(gitdir, common);
    const back = smallFile(path.join(gitdir, "gitdir"))?.trim();
    const linked =
      back !== undefined &&
      sameFile(path.resolve(gitdir, back), dotGit) &&
      sameFile(path.dirname(gitdir), path.join(commonDir, "worktrees"));
    return linked ? [gitdir, commonDir] : [];
  } catch {
    return [];
  }
}

function sameFile(a: string, b: string): boolean {
  return realpathOfLongestPrefix(a) === realpathOfLongestPrefix(b);
}

/** A regular file's text, if it is one of at most 4 KiB (a FIFO planted here would hold the read). */
function smallFile(file: string): string | undefined {
  try {
    const st = lstatSync(file);
    return st.isFile() && st.size <= 4096 ? readFileSync(file, "utf8") : undefined;
  } catch {
    return undefined;
  }
}
