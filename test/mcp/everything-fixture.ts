import { cpSync, mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

export const FIXTURE = path.join(ROOT, "examples", "mcp-everything");

/**
 * examples/mcp-everything copied into a trusted temp project (its tools module loads only from a
 * trusted project), with `toolplane` resolving to this checkout as an installed package would.
 * Extra files are written over the copy.
 */
export function everythingProject() {
  const p = tempProject({}, { trust: true });
  cpSync(FIXTURE, p.repo, { recursive: true });
  mkdirSync(path.join(p.repo, "node_modules"), { recursive: true });
  symlinkSync(ROOT, path.join(p.repo, "node_modules", "toolplane"), "dir");
  return { repo: p.repo, env: p.bareEnv };
}
