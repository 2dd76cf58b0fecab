import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import type { ShadowedSkill } from "../discover/view.js";

/** Past this many files a bundle is not compared (and is reported like any other override). */
const MAX_FILES = 500;

/**
 * True when a shadowed skill is the same skill as the one that won its name: the same file (a
 * symlinked root), or a copy whose SKILL.md is byte-for-byte the same and, for a bundle, whose
 * other files have the same names and sizes. Tools that read both `.agents/skills` and
 * `.claude/skills` lead people to keep one skill in both; that is not a conflict.
 */
export function identicalCopy(s: ShadowedSkill): boolean {
  try {
    if (realpathSync(s.path) === realpathSync(s.by.path)) return true;
    if (!readFileSync(s.path).equals(readFileSync(s.by.path))) return false;
    const isBundle = path.basename(s.path) === "SKILL.md";
    if (!isBundle) return true;
    const a = listing(path.dirname(s.path));
    const b = listing(path.dirname(s.by.path));
    return a !== undefined && b !== undefined && a === b;
  } catch {
    return false;
  }
}

/** A bundle's files as "relative path:size" lines, sorted; undefined when it is too big to compare. */
function listing(dir: string): string | undefined {
  const out: string[] = [];
  const walk = (rel: string): boolean => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      if (e.isDirectory()) {
        if (!walk(r)) return false;
      } else {
        if (out.length >= MAX_FILES) return false;
        out.push(`${r}:${statSync(path.join(dir, r)).size}`);
      }
    }
    return true;
  };
  return walk("") ? out.sort().join("\n") : undefined;
}

/** Names whose every shadowed skill is an identical copy of the winner. */
export function identicalSkillNames(shadowed: readonly ShadowedSkill[]): Set<string> {
  const copies = new Set<string>();
  const conflicts = new Set<string>();
  for (const s of shadowed) (identicalCopy(s) ? copies : conflicts).add(s.name);
  for (const name of conflicts) copies.delete(name);
  return copies;
}
