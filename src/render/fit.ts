// The catalog budget: how many entries fit and at what description cap (water-filling), in
// characters and, when a token limit is set, o200k tokens. Pure functions over the entries.
import type { ToolProjection } from "../declare/project.js";
import { CUT_MARKER, cutText, waterFill } from "./budget.js";
import {
  DEFERRED_HEADER,
  deferredLine,
  notListed,
  SKILL_DESCRIPTIONS_LEFT_OUT,
  SKILLS_HEADER,
  skillsNotListed,
} from "./system.js";
import { countTokens } from "./tokens.js";
import type { CatalogSkill } from "./types.js";

/** The entries in budget priority order: tools (registry order), skills (by name), deferred names. */
export interface Entries {
  tools: readonly ToolProjection[];
  skills: readonly CatalogSkill[];
  deferred: readonly string[];
}

export interface Fit {
  kept: Entries;
  /** The common description cap; Infinity when nothing is cut. */
  cap: number;
  /** Whether the budget holds the note on deferred names left out (false only when nothing fits). */
  listsOmitted: boolean;
  /**
   * False when the kept skills are listed by name alone (`- name`, then one line saying their
   * descriptions were left out): every name is kept before any is dropped.
   */
  skillDescriptions: boolean;
}

/**
 * The least cap a skill description is cut to: it keeps at least the marker's length of its own
 * text (cutText keeps half the room or more), so a cut description never shows more marker than
 * text. Below it the skills are listed by name alone.
 */
export const SKILL_MIN_CAP = 3 * CUT_MARKER.length;

/** Characters of the system text's frame: headers, `- name: ` prefixes, separators. */
export function frameChars(
  skills: readonly CatalogSkill[],
  deferred: readonly string[],
  omittedDeferred: number,
  omittedSkills = 0,
  namesOnly = false,
): number {
  let n = 0;
  const skillPart = skills.length > 0 || omittedSkills > 0;
  if (skillPart) {
    n += SKILLS_HEADER.length;
    // "\n- name: " with a description, "\n- name" without
    for (const s of skills) n += (namesOnly ? 3 : 5) + s.name.length;
    if (namesOnly && skills.length > 0) n += 1 + SKILL_DESCRIPTIONS_LEFT_OUT.length;
    if (omittedSkills > 0) n += 1 + skillsNotListed(omittedSkills).length;
  }
  if (deferred.length > 0 || omittedDeferred > 0) {
    if (skillPart) n += 2;
    n += DEFERRED_HEADER.length + 1;
    for (const d of deferred) n += d.length;
    if (deferred.length > 1) n += 2 * (deferred.length - 1);
    if (omittedDeferred > 0) n += (deferred.length > 0 ? 2 : 0) + notListed(omittedDeferred).length;
  }
  return n;
}

/**
 * The common cap and the entries that fit. Characters are exact; tokens are planned from each
 * description's token count scaled by the share kept, then checked exactly and the cap lowered
 * until the count fits.
 */
export function fitBudget(
  all: Entries,
  charLimit: number,
  tokenLimit: number | undefined,
  maxChars: number,
): Fit {
  let count = all.tools.length + all.skills.length + all.deferred.length;
  for (;;) {
    const kept = take(all, count);
    const omitted = all.deferred.length - kept.deferred.length;
    const omittedSkills = all.skills.length - kept.skills.length;
    const cap = capFor(kept, omitted, omittedSkills, charLimit, tokenLimit, maxChars, false);
    if (cap !== undefined && (cap >= SKILL_MIN_CAP || !cutsASkill(kept.skills, cap, maxChars)))
      return { kept, cap, listsOmitted: true, skillDescriptions: true };
    // every kept skill by name alone before any skill is dropped
    if (kept.skills.length > 0) {
      const namesCap = capFor(kept, omitted, omittedSkills, charLimit, tokenLimit, maxChars, true);
      if (namesCap !== undefined)
        return { kept, cap: namesCap, listsOmitted: true, skillDescriptions: false };
    } else if (cap !== undefined) return { kept, cap, listsOmitted: true, skillDescriptions: true };
    if (count === 0) return { kept, cap: CUT_MARKER.length, listsOmitted: false, skillDescriptions: true };
    count = shrink(all, count, charLimit, tokenLimit);
  }
}

function take(all: Entries, count: number): Entries {
  const t = Math.min(count, all.tools.length);
  const s = Math.min(count - t, all.skills.length);
  const d = count - t - s;
  return {
    tools: t === all.tools.length ? all.tools : all.tools.slice(0, t),
    skills: s === all.skills.length ? all.skills : all.skills.slice(0, s),
    deferred: d === all.deferred.length ? all.deferred : all.deferred.slice(0, d),
  };
}

/** Whether a description of the kept skills would be cut at `cap`. */
function cutsASkill(skills: readonly CatalogSkill[], cap: number, maxChars: number): boolean {
  const c = Math.min(cap, maxChars);
  return skills.some((s) => s.description.length > c);
}

function capFor(
  kept: Entries,
  omittedDeferred: number,
  omittedSkills: number,
  charLimit: number,
  tokenLimit: number | undefined,
  maxChars: number,
  namesOnly: boolean,
): number | undefined {
  const lengths: number[] = [];
  let fixed = frameChars(kept.skills, kept.deferred, omittedDeferred, omittedSkills, namesOnly);
  for (const t of kept.tools) {
    fixed += t.name.length;
    lengths.push(Math.min(t.description.length, maxChars));
  }
  if (!namesOnly) for (const s of kept.skills) lengths.push(Math.min(s.description.length, maxChars));
  let cap = waterFill(lengths, charLimit - fixed, (k, c) => Math.min(lengths[k]!, c));
  if (cap === undefined || tokenLimit === undefined) return cap;

  const descriptions = [
    ...kept.tools.map((t) => t.description),
    ...(namesOnly ? [] : kept.skills.map((s) => s.description)),
  ];
  const noText = { ...kept, tools: kept.tools.map((t) => ({ ...t, description: "" })) };
  const fixedTokens = tokensOf(
    noText,
    omittedDeferred,
    () => "",
    kept.skills.map(() => ""),
    omittedSkills,
    namesOnly,
  );
  const tokens = descriptions.map((d) => countTokens(d.length > maxChars ? cutText(d, maxChars) : d));
  const markerTokens = countTokens(CUT_MARKER);
  const planned = waterFill(lengths, tokenLimit - fixedTokens, (k, c) =>
    lengths[k]! <= c ? tokens[k]! : Math.ceil((tokens[k]! * c) / lengths[k]!) + markerTokens,
  );
  if (planned === undefined) return undefined;
  cap = Math.min(cap, planned);
  // exact check: lower the cap until the real token count fits
  for (;;) {
    const c = Math.min(cap, maxChars);
    let used = fixedTokens;
    for (const d of descriptions) used += countTokens(d.length > c ? cutText(d, c) : d);
    if (used <= tokenLimit) return cap;
    if (cap <= CUT_MARKER.length) return undefined;
    cap = Math.max(CUT_MARKER.length, Math.floor(Math.min(cap, maxChars) * 0.95));
  }
}

/**
 * o200k tokens of the catalog text, counted per piece (each tool name and description, each
 * system line's parts) and summed, so a piece's count can be memoised.
 */
export function tokensOf(
  kept: Entries,
  omittedDeferred: number,
  toolText: (t: ToolProjection) => string,
  skillTexts: readonly string[],
  omittedSkills = 0,
  namesOnly = false,
): number {
  let sum = 0;
  for (const t of kept.tools) sum += countTokens(t.name) + countTokens(toolText(t));
  if (kept.skills.length > 0 || omittedSkills > 0) {
    sum += countTokens(SKILLS_HEADER);
    kept.skills.forEach((s, i) => {
      sum += namesOnly
        ? countTokens(`- ${s.name}`)
        : countTokens(`- ${s.name}: `) + countTokens(skillTexts[i]!);
    });
    if (namesOnly && kept.skills.length > 0) sum += countTokens(SKILL_DESCRIPTIONS_LEFT_OUT);
    if (omittedSkills > 0) sum += countTokens(skillsNotListed(omittedSkills));
  }
  if (kept.deferred.length > 0 || omittedDeferred > 0)
    sum += countTokens(DEFERRED_HEADER) + countTokens(deferredLine(kept.deferred, omittedDeferred));
  return sum;
}

/** The largest count below `count` whose minimum cost (names and markers) may fit. */
function shrink(all: Entries, count: number, charLimit: number, tokenLimit: number | undefined): number {
  const order: Array<{ name: string; min: number; overhead: number }> = [
    ...all.tools.map((t) => ({
      name: t.name,
      min: Math.min(t.description.length, CUT_MARKER.length),
      overhead: 0,
    })),
    // a skill can be listed by name alone ("- name")
    ...all.skills.map((s) => ({ name: s.name, min: 0, overhead: 3 })),
    ...all.deferred.map((d) => ({ name: d, min: 0, overhead: 2 })),
  ];
  let sum = 0;
  let fits = 0;
  for (let k = 0; k < count - 1; k++) {
    const e = order[k]!;
    sum += e.name.length + e.min + e.overhead;
    if (sum > charLimit) break;
    fits = k + 1;
  }
  if (tokenLimit !== undefined) {
    let tsum = 0;
    let tfits = 0;
    for (let k = 0; k < fits; k++) {
      tsum += countTokens(order[k]!.name) + 2;
      if (tsum > tokenLimit) break;
      tfits = k + 1;
    }
    fits = tfits;
  }
  return Math.min(fits, count - 1);
}

/** Water-filling's total for cap `c`: each length, or `c` when longer. */
export function capped(lengths: readonly number[], c: number): number {
  let sum = 0;
  for (const l of lengths) sum += Math.min(l, c);
  return sum;
}
