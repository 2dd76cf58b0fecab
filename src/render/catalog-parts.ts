// Small pure pieces of a full render (catalog.ts): wire-name dedupe, the renamed list, skill order
// and the skills-left-out line.
import { hash } from "node:crypto";
import type { ToolProjection } from "../declare/project.js";
import type { LineMemo } from "./memo.js";
import { skillsNotListed } from "./system.js";
import type { CatalogSkill } from "./types.js";

export function renamedList(tools: readonly ToolProjection[], at: ReadonlyArray<string | undefined>) {
  const out: Array<{ name: string; wireName: string }> = [];
  at.forEach((w, i) => {
    if (w !== undefined) out.push({ name: tools[i]!.name, wireName: w });
  });
  return out;
}

export function sortedByName(skills: readonly CatalogSkill[]): readonly CatalogSkill[] {
  for (let i = 1; i < skills.length; i++) {
    if (skills[i - 1]!.name > skills[i]!.name) {
      return [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
  }
  return skills;
}

export function dedupe(name: string, used: ReadonlySet<string>, max: number): string {
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${name.slice(0, max - suffix.length)}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** The skills-left-out marker as a system-text line (see skillsNotListed). */
export function notListedLine(count: number): LineMemo {
  return frameLine(skillsNotListed(count));
}

/** A line of the skills part that is no skill's (a marker). */
export function frameLine(text: string): LineMemo {
  return { name: "", description: "", text, digest: hash("sha256", text, "binary") };
}

/** The same items in the same order (by identity; strings by value). */
export function sameList<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean {
  if (a === b) return true;
  if ((a?.length ?? 0) !== (b?.length ?? 0)) return false;
  for (let i = 0; i < (a?.length ?? 0); i++) if (a![i] !== b![i]) return false;
  return true;
}
