import { lstatSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The repository folders outside a root that git needs to work in it: a worktree's or a
 * submodule's `.git` is a file (`gitdir: PATH`) naming its own folder elsewhere, and that folder's
 * `commondir` names the main repository's `.git`, where objects, refs and config live. The
 * sandbox shows them read-only, so `git status` and `git log` work in a worktree as in a clone (a
 * commit there still fails: the main repository is not the sandbox's to write). Reads two small
 * files per root; a root with a `.git` folder, or none, needs nothing.
 */
export function gitDirsOutside(root: string): string[] {
  const dotGit = path.join(root, ".git");
  try {
    const st = lstatSync(dotGit);
    if (!st.isFile() || st.size > 4096) return [];
    const named = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"))?.[1];
    if (named === undefined) return [];
    const gitdir = path.resolve(root, named);
    const out = [gitdir];
    try {
      const common = readFileSync(path.join(gitdir, "commondir"), "utf8").trim();
      if (common !== "") out.push(path.resolve(gitdir, common));
    } catch {
      // a submodule's folder has no commondir: it is its own repository
    }
    return out;
  } catch {
    return [];
  }
}
