import { type Dirent, readdirSync } from "node:fs";
import path from "node:path";
import { pathGlob } from "../../permissions/glob.js";
import { isInside, realpathOfLongestPrefix } from "../../permissions/paths.js";
import { isDirectory } from "../../util/file-kind.js";
import { FileTooLargeError, NotRegularFileError, readRegularFileSync } from "../../util/regular-file.js";
import type { CheckBudget } from "./budget.js";

/** Entries a recursive read is checked through for askFiles; past it the read asks (it cannot be checked). */
export const SCAN_MAX_ENTRIES = 50_000;

/** How a recursive read reaches below its folder (analysis.ts PathUse). */
export interface Reach {
  /** It opens every file's contents, hidden ones included (grep -r, rg --hidden). */
  contents?: boolean;
  /** It opens the contents of files whose path holds no hidden name (rg), and hidden ones an ignore file lets in. */
  visible?: boolean;
  /** It follows symlinks (grep -R, rg -L, find -L, ls -RL, diff -r): each is judged by where it leads. */
  follows?: boolean;
}

/** The ignore files ripgrep reads; a `!` line in one lets a hidden file (.env) into the search. */
const IGNORE_FILES = [".gitignore", ".ignore", ".rgignore"];

/**
 * What a recursive read of `dir` reaches that the read tool would not give unasked: the first file
 * whose name is in permissions.askFiles (`.env`), or, for a walk that follows symlinks, one that
 * leads outside the workspace. .git and node_modules are not entered (docs/tools.md says so); a
 * walk that follows symlinks enters the folders they lead to inside the workspace.
 */
export function reachBelow(
  dir: string,
  how: Reach,
  askFiles: readonly string[],
  workspace: string,
  budget?: CheckBudget,
): string | undefined {
  const matchers = askFiles.map((g) => pathGlob(g, true));
  const asks = (name: string) => matchers.some((m) => m(name));
  if (!how.follows && (matchers.length === 0 || (!how.contents && !how.visible))) return undefined;
  const root = realpathOfLongestPrefix(workspace);
  // a hidden file reached only through an ignore file's `!` line: known once every one is read
  let hiddenHit: string | undefined;
  let lets = how.contents === true || (how.visible === true && whitelistAbove(dir));
  const queue: Array<{ at: string; hidden: boolean }> = [{ at: dir, hidden: false }];
  const entered = new Set<string>([realpathOfLongestPrefix(dir)]);
  let seen = 0;
  for (let next = 0; next < queue.length; next++) {
    const { at, hidden } = queue[next]!;
    let entries: Dirent[];
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      budget?.tick(256);
      if (++seen > SCAN_MAX_ENTRIES) return `more than ${SCAN_MAX_ENTRIES} entries to check`;
      const full = path.join(at, e.name);
      const shown = path.relative(dir, full) || e.name;
      const isHidden = hidden || e.name.startsWith(".");
      if (how.visible && !lets && IGNORE_FILES.includes(e.name) && hasWhitelist(full)) lets = true;
      if (asks(e.name.normalize("NFC")) && (how.contents || how.visible)) {
        if (!isHidden || lets) return shown;
        hiddenHit ??= shown;
      }
      if (how.follows && e.isSymbolicLink()) {
        const target = realpathOfLongestPrefix(full);
        if (!isInside(target, root)) return `${shown}, a symlink to ${target} (outside the workspace)`;
        // the walk reads the file it leads to under the link's name: judged by the target's name
        // too, as the read tool checks both (a `.env` in a folder the walk does not enter)
        if ((how.contents || how.visible) && asks(path.basename(target).normalize("NFC"))) {
          if (!isHidden || lets) return `${shown}, a symlink to ${target}`;
          hiddenHit ??= `${shown}, a symlink to ${target}`;
        }
        if (isDirectory(target) && !entered.has(target)) {
          entered.add(target);
          queue.push({ at: target, hidden: isHidden });
        }
        continue;
      }
      if (e.isDirectory() && e.name !== ".git" && e.name !== "node_modules") {
        if (how.follows) entered.add(realpathOfLongestPrefix(full));
        queue.push({ at: full, hidden: isHidden });
      }
    }
  }
  return hiddenHit !== undefined && lets ? hiddenHit : undefined;
}

/** An ignore file in `dir` or a folder above it (ripgrep reads them up the tree) with a `!` line. */
function whitelistAbove(dir: string): boolean {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (IGNORE_FILES.some((f) => hasWhitelist(path.join(at, f)))) return true;
    if (hasWhitelist(path.join(at, ".git", "info", "exclude"))) return true;
    if (at === path.dirname(at)) return false;
  }
}

function hasWhitelist(file: string): boolean {
  try {
    // a plain file only, checked on the open descriptor: a FIFO named .gitignore (planted, or
    // swapped in after a stat) would hold the check forever
    return /^\s*!/m.test(readRegularFileSync(file, 1 << 20));
  } catch (error) {
    // a file too large to read, or a pipe, device or socket where one was expected: it may let in
    if (error instanceof FileTooLargeError) return true;
    return error instanceof NotRegularFileError && error.kind !== "a directory";
  }
}
