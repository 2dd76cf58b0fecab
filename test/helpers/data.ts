import { existsSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./cli.js";

/**
 * The shared data folder, read in place: `$TOOLPLANE_DATA`, else the nearest `shared/data` above
 * the repository (a worktree sits deeper than a clone, so the ancestors are searched).
 */
export function dataDir(): string {
  if (process.env.TOOLPLANE_DATA) return process.env.TOOLPLANE_DATA;
  let dir = ROOT;
  for (;;) {
    const candidate = path.join(dir, "shared", "data");
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("shared/data not found above the repository: set TOOLPLANE_DATA");
    dir = parent;
  }
}
