import type { CatalogSkill } from "./types.js";

export const SKILLS_HEADER = "Available skills (load one with the skill tool):";
export const DEFERRED_HEADER = "Deferred tools, names only (load one with tool_search before calling it):";

/**
 * The end of the deferred names when the budget left some out: the model is told how many more
 * exist and how to reach them, so a partial list never reads as the whole set.
 */
export function notListed(count: number): string {
  return `${count} more not listed here (tool_search finds them)`;
}

/** The deferred names line: the listed names, then `notListed` when `omitted` is above 0. */
export function deferredLine(listed: readonly string[], omitted: number): string {
  const names = listed.join(", ");
  if (omitted <= 0) return names;
  return names === "" ? notListed(omitted) : `${names}, ${notListed(omitted)}`;
}

/** The skill catalog part of the system text; skills sorted by name (code-point order). */
export function renderSkillCatalog(skills: readonly CatalogSkill[]): string {
  if (skills.length === 0) return "";
  return skillLines(sortByName(skills)).join("\n");
}

/** The deferred-tools part: one hint line, then the names, nothing else (no search hints). */
export function renderDeferred(names: readonly string[]): string {
  if (names.length === 0) return "";
  return `${DEFERRED_HEADER}\n${names.join(", ")}`;
}

/** The whole system text: skills (already sorted), then deferred names. */
export function renderSystem(skills: readonly CatalogSkill[], deferred: readonly string[]): string {
  const parts: string[] = [];
  if (skills.length > 0) parts.push(skillLines(skills).join("\n"));
  if (deferred.length > 0) parts.push(renderDeferred(deferred));
  return parts.join("\n\n");
}

/** The pieces the system text is counted in (tokens are counted per piece, then summed). */
export function systemPieces(skills: readonly CatalogSkill[], deferred: readonly string[]): string[] {
  const pieces: string[] = [];
  if (skills.length > 0) {
    pieces.push(SKILLS_HEADER);
    for (const s of skills) pieces.push(`- ${s.name}: `, s.description);
  }
  if (deferred.length > 0) pieces.push(DEFERRED_HEADER, deferred.join(", "));
  return pieces;
}

function skillLines(skills: readonly CatalogSkill[]): string[] {
  return [SKILLS_HEADER, ...skills.map((s) => `- ${s.name}: ${s.description}`)];
}

export function sortByName<T extends { name: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
