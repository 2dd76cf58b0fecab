import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findProjectRoot, homeDir, toolplaneHome } from "../util/paths.js";
import type { SkillRoot } from "./types.js";

export interface RootOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Config `skills.paths`: absolute, `~/`-relative, or relative to the project root. */
  paths?: readonly string[];
  /** The bundled root; defaults to the `skills` folder shipped in the package (may be absent). */
  bundled?: string | null;
}

/**
 * The package's own `skills` folder (rank 600; empty or absent is fine). Found by walking up to
 * package.json, since this file runs both from src/ (tests) and from dist/src/.
 */
export function bundledSkillsDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, "package.json"))) return path.join(dir, "skills");
    const parent = path.dirname(dir);
    if (parent === dir) return path.join(path.dirname(fileURLToPath(import.meta.url)), "skills");
    dir = parent;
  }
}

/** Every skill root for a working directory, lowest rank (highest privilege) first. */
export function skillRoots(options: RootOptions): SkillRoot[] {
  const env = options.env ?? process.env;
  const project = findProjectRoot(options.cwd);
  const home = homeDir(env);
  const roots: SkillRoot[] = [
    { provider: "skills:project", dir: path.join(project, ".toolplane", "skills"), rank: 100 },
    { provider: "skills:project-agents", dir: path.join(project, ".agents", "skills"), rank: 200 },
    { provider: "skills:project-claude", dir: path.join(project, ".claude", "skills"), rank: 210 },
  ];
  const custom = options.paths ?? [];
  custom.forEach((p, i) => {
    const dir = p === "~" || p.startsWith("~/") ? path.join(home, p.slice(1)) : path.resolve(project, p);
    roots.push({
      provider: custom.length === 1 ? "skills:custom" : `skills:custom-${i + 1}`,
      dir,
      rank: 300,
    });
  });
  roots.push(
    { provider: "skills:toolplane-home", dir: path.join(toolplaneHome(env), "skills"), rank: 400 },
    { provider: "skills:user-agents", dir: path.join(home, ".agents", "skills"), rank: 500 },
    { provider: "skills:user-claude", dir: path.join(home, ".claude", "skills"), rank: 510 },
  );
  const bundled = options.bundled === undefined ? bundledSkillsDir() : options.bundled;
  if (bundled) roots.push({ provider: "skills:bundled", dir: bundled, rank: 600 });
  // The same directory reached twice (a custom path naming a standard root) is scanned once.
  const seen = new Set<string>();
  return roots.filter((r) => {
    if (seen.has(r.dir)) return false;
    seen.add(r.dir);
    return true;
  });
}
