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

/** The deferred-tools part: one hint line, then the names (and how many were left out). */
export function renderDeferred(names: readonly string[], omitted = 0): string {
  if (names.length === 0 && omitted <= 0) return "";
  return `${DEFERRED_HEADER}\n${deferredLine(names, omitted)}`;
}

/** The whole system text: skills (already sorted), then deferred names. */
export function renderSystem(skills: readonly CatalogSkill[], deferred: readonly string[]): string {
  const parts: string[] = [];
  if (skills.length > 0) parts.push(skillLines(skills).join("\n"));
  if (deferred.length > 0) parts.push(renderDeferred(deferred));
  return parts.join("\n\n");
}

function skillLines(skills: readonly CatalogSkill[]): string[] {
  return [SKILLS_HEADER, ...skills.map((s) => `- ${s.name}: ${s.description}`)];
}

export function sortByName<T extends { name: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
