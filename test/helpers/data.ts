import { existsSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./cli.js";

/**
 * The shared data folder, read in place: `$TOOLPLANE_DATA`, else the nearest `shared/data` above
 * the repository (a worktree sits deeper than a clone, so the ancestors are searched); undefined
 * when there is none (a clone on its own), and the tests that read it skip, saying `DATA_MISSING`.
 */
export function findDataDir(): string | undefined {
  if (process.env.TOOLPLANE_DATA) return process.env.TOOLPLANE_DATA;
  let dir = ROOT;
  for (;;) {
    const candidate = path.join(dir, "shared", "data");
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The line a skipped test shows when the shared data folder is not there. */
export const DATA_MISSING =
  "skipped: needs the shared data folder (shared/data above the repository): set TOOLPLANE_DATA to it";

/** The Anthropic skill bundles of the shared data, or undefined (see findDataDir). */
export function anthropicSkills(): string | undefined {
  const data = findDataDir();
  return data === undefined ? undefined : path.join(data, "skills", "anthropics");
}
