// Volatile content kept out of the stable prefix (catalog.volatile: "attachments"): the tools are
// fitted to the budget on their own, so a skill or a deferred name added leaves every tool's
// bytes, the system text and prefixHash as they were; the skill listing and the deferred names
// are fitted to what the tools left of the budget and returned as attachments, with MCP servers'
// instructions after them.
import { CUT_MARKER } from "./budget.js";
import { type BudgetSettings, type RenderInput, renderFull } from "./catalog.js";
import { sameList } from "./catalog-parts.js";
import { frameChars } from "./fit.js";
import { renderInstructions } from "./instructions.js";
import { DEFERRED_HEADER } from "./system.js";
import type { Attachment, Catalog, CatalogBudget, CatalogSkill } from "./types.js";

/**
 * What the model sees for one provider: the tools array and the system text, fitted to the
 * budget. Over budget, every name stays and descriptions are shortened by water-filling (short
 * ones whole, long ones cut to one common cap on a word boundary, with a visible marker); only
 * when the names alone do not fit are entries left out, from the end (deferred names first, then
 * skills, then tools), and listed. The report lists every cut and every schema conversion.
 * With `volatile: "attachments"`, skills, deferred names and instructions are attachments instead.
 */
export function renderCatalog(input: RenderInput): Catalog {
  if (input.volatile === "attachments") return renderSplit(input, (part) => renderFull(part).catalog);
  return renderFull(input).catalog;
}

/**
 * What the tools leave to the listing at least, whatever they need: room for both headers and
 * both "N more ... not listed" lines (245 characters, 53 o200k tokens with five-digit counts), so a listing the
 * tools crowd out still tells the model what exists and how to reach it. A constant of the
 * budget settings, never of the listing, so the tools' bytes cannot depend on the listing.
 */
export const LISTING_RESERVE = { chars: 256, tokens: 80 };

/**
 * What the tools leave to the listing: the constant reserve, or, when it is more, room for every
 * skill's name alone (`- name` lines and the line saying the descriptions were left out), rounded
 * up to a whole reserve so that a skill added or renamed seldom moves the tools' share; at most
 * half the budget, and never what the tools' names and markers need. So under a tight budget the
 * skills' names come before the tools' descriptions (as when both were fitted as one text), and
 * names are dropped only when they do not fit in that; with room, the tools' bytes do not depend
 * on the listing.
 */
function listingReserve(input: RenderInput, chars: number): number {
  const base = reserveOf(chars, "chars");
  const skills = input.skills ?? [];
  if (skills.length === 0) return base;
  const names = frameChars(skills, [], 0, 0, true);
  const step = LISTING_RESERVE.chars;
  const wanted = Math.ceil(names / step) * step;
  let toolsLeast = 0;
  for (const t of input.tools)
    toolsLeast += t.name.length + Math.min(t.description.length, CUT_MARKER.length);
  return Math.max(base, Math.min(wanted, Math.floor(chars / 2), chars - toolsLeast));
}

/** The stable part's input: the tools (and a native deferral tail) alone, in the budget less the reserve. */
export function stablePart(input: RenderInput): RenderInput {
  const {
    skills: _s,
    deferred: _d,
    instructions: _i,
    attachments: _a,
    budget: _b,
    budgetChars: _c,
    ...rest
  } = input;
  const settings = settingsOf(input);
  const budget: BudgetSettings = {
    ...settings,
    chars: settings.chars - listingReserve(input, settings.chars),
  };
  if (settings.tokens != null) budget.tokens = settings.tokens - reserveOf(settings.tokens, "tokens");
  return { ...rest, budget, volatile: "system" };
}

function reserveOf(limit: number, unit: "chars" | "tokens"): number {
  return Math.min(LISTING_RESERVE[unit], Math.floor(limit / 2));
}

/** The listing's input: skills and deferred names in what the stable part left of the budget. */
export function listingPart(input: RenderInput, stable: Catalog): RenderInput {
  const settings = settingsOf(input);
  const budget: BudgetSettings = { chars: Math.max(0, settings.chars - stable.budget.chars.used) };
  if (settings.tokens != null)
    budget.tokens = Math.max(0, settings.tokens - (stable.budget.tokens?.used ?? 0));
  if (settings.descriptionMaxChars !== undefined) budget.descriptionMaxChars = settings.descriptionMaxChars;
  const out: RenderInput = {
    provider: input.provider,
    tools: [],
    skills: input.skills ?? [],
    deferred: input.deferred ?? [],
    budget,
    volatile: "system",
  };
  if (input.memo) out.memo = input.memo;
  return out;
}

/** Renders both parts with `render` and joins them. */
export function renderSplit(input: RenderInput, render: (part: RenderInput) => Catalog): Catalog {
  const stable = render(stablePart(input));
  return joinParts(input, stable, render(listingPart(input, stable)));
}

/** The catalog: the stable part's tools and hash, the listing and instructions as attachments. */
export function joinParts(input: RenderInput, stable: Catalog, listing: Catalog): Catalog {
  const settings = settingsOf(input);
  const instructions = renderInstructions(input.instructions, settings.descriptionMaxChars ?? Infinity);
  const attachments: Attachment[] = [
    ...listingAttachments(listing.system),
    ...instructions.texts.map((text) => ({ kind: "mcp-instructions", text })),
    ...(input.attachments ?? []).map((a) => ({ ...a })),
  ];
  return {
    ...stable,
    deferred: input.native ? stable.deferred : listing.deferred,
    budget: joinBudgets(settings, stable.budget, listing.budget),
    attachments,
    report: {
      ...stable.report,
      cut: [...stable.report.cut, ...listing.report.cut, ...instructions.cuts],
      omitted: [...stable.report.omitted, ...listing.report.omitted],
    },
  };
}

/** The listing's system text as attachments: the skills part, then the deferred names part. */
export function listingAttachments(system: string): Attachment[] {
  if (system === "") return [];
  const at = system.startsWith(DEFERRED_HEADER) ? 0 : system.indexOf(`\n\n${DEFERRED_HEADER}`) + 2;
  if (at === 1) return [{ kind: "skills", text: system }];
  const out: Attachment[] = [];
  if (at > 0) out.push({ kind: "skills", text: system.slice(0, at - 2) });
  out.push({ kind: "deferred", text: system.slice(at) });
  return out;
}

function joinBudgets(settings: BudgetSettings, a: CatalogBudget, b: CatalogBudget): CatalogBudget {
  const chars = a.chars.used + b.chars.used;
  const tokenLimit = settings.tokens ?? undefined;
  const tokens = tokenLimit === undefined ? undefined : (a.tokens?.used ?? 0) + (b.tokens?.used ?? 0);
  const tokensBind = tokens !== undefined && tokens / tokenLimit! > chars / settings.chars;
  const caps = [a.cap, b.cap].filter((c): c is number => c !== undefined);
  return {
    limit: tokensBind ? tokenLimit! : settings.chars,
    used: tokensBind ? tokens! : chars,
    unit: tokensBind ? "tokens" : "chars",
    truncated: a.truncated || b.truncated,
    chars: { limit: settings.chars, used: chars },
    ...(tokens !== undefined ? { tokens: { limit: tokenLimit!, used: tokens } } : {}),
    ...(caps.length > 0 ? { cap: Math.min(...caps) } : {}),
  };
}

function settingsOf(input: RenderInput): BudgetSettings {
  return input.budget ?? { chars: input.budgetChars ?? 8000 };
}

/**
 * Whether the listing rendered for `was` is the one `now` would render: the same skills (by
 * value: callers build new objects per read) and deferred names, and it fitted whole into a
 * remainder that did not shrink below what it used. A tool edit moves the remainder; this keeps
 * it from re-fitting a long deferred list that fits either way.
 */
export function listingStill(was: RenderInput, listing: Catalog, now: RenderInput): boolean {
  if (listing.budget.truncated || now.budget?.tokens != null) return false;
  if (!sameSkills(was.skills ?? [], now.skills ?? [])) return false;
  if (!sameList(was.deferred, now.deferred)) return false;
  if (settingsOf(was).descriptionMaxChars !== settingsOf(now).descriptionMaxChars) return false;
  return listing.budget.chars.used <= settingsOf(now).chars;
}

function sameSkills(a: readonly CatalogSkill[], b: readonly CatalogSkill[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++)
    if (a[i]!.name !== b[i]!.name || a[i]!.description !== b[i]!.description) return false;
  return true;
}

/**
 * The attachments as one message text (each part, blank-line separated), for a harness that sends
 * them as one user message after the cached prefix; "" when there are none.
 */
export function attachmentsText(attachments: ReadonlyArray<{ text: string }>): string {
  return attachments.map((a) => a.text).join("\n\n");
}
