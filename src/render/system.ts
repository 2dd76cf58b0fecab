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

/**
 * The last line of the skills part when the budget left skills out: the model sees that the list
 * is partial (their names are in the catalog's `report.omitted`).
 */
export function skillsNotListed(count: number): string {
  return `(${count} more skill${count === 1 ? "" : "s"} not listed here: the catalog budget left them out)`;
}

/**
 * The last skill line when the budget left every skill's description out to keep the names
 * (`- name` lines): the marker of those cuts, one for all of them.
 */
export const SKILL_DESCRIPTIONS_LEFT_OUT =
  "(descriptions left out here: the catalog budget; the skill tool loads a skill by name)";

/** Whether a system-text line is the `skillsNotListed` marker or the descriptions-left-out one. */
export function isSkillsNotListed(line: string): boolean {
  return /^\(\d+ more skills? not listed here: /.test(line) || line === SKILL_DESCRIPTIONS_LEFT_OUT;
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
  return [SKILLS_HEADER, ...skills.map((s) => `- ${s.name}: ${foldLines(s.description)}`)];
}

/**
 * A description on one line: each line break (with the spaces around it) becomes one space, and a
 * trailing break is dropped. The skill list is one line per skill, so a YAML block description
 * (`description: |`) must not start lines of its own in the system text.
 */
export function foldLines(text: string): string {
  if (!text.includes("\n") && !text.includes("\r")) return text;
  return text.replace(/[ \t]*[\r\n]+[ \t\r\n]*/g, " ").trim();
}

/** Skills with their descriptions folded; the same array (and objects) when none has a line break. */
export function foldSkills(skills: readonly CatalogSkill[]): readonly CatalogSkill[] {
  if (!skills.some((s) => s.description.includes("\n") || s.description.includes("\r"))) return skills;
  return skills.map((s) => {
    const description = foldLines(s.description);
    return description === s.description ? s : { ...s, description };
  });
}

export function sortByName<T extends { name: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
