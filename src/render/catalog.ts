import { createHash } from "node:crypto";
import type { ToolProjection } from "../declare/project.js";
import { adapterFor } from "./adapters.js";
import { CUT_MARKER, cutText, waterFill } from "./budget.js";
import { RenderMemo } from "./memo.js";
import { wireName } from "./schema/names.js";
import { renderSystem, sortByName, systemPieces } from "./system.js";
import { countTokens } from "./tokens.js";
import type { BudgetCut, Catalog, CatalogSkill, ProviderName, SchemaConversion } from "./types.js";

export { renderSkillCatalog } from "./system.js";

export interface BudgetSettings {
  /** Total characters of catalog text (tool names and descriptions plus the system text). */
  chars: number;
  /** When set, the o200k token count bounds it too. */
  tokens?: number | null;
  /** Cap on any one description. */
  descriptionMaxChars?: number;
}

export interface RenderInput {
  provider: ProviderName;
  /** Model-facing projections, in registry order. */
  tools: readonly ToolProjection[];
  /** Model-visible skills; listed in the system text sorted by name. */
  skills?: readonly CatalogSkill[];
  /** Deferred tool names: listed by name only, under one hint line. */
  deferred?: readonly string[];
  budget?: BudgetSettings;
  /** Shorthand for `budget: {chars}`. */
  budgetChars?: number;
  incomplete?: boolean;
  /** Volatile context (agents, connected servers, the time): never part of the stable prefix. */
  attachments?: readonly string[];
  /** Per-entry memo; a shared default is used when left out. */
  memo?: RenderMemo;
}

const PREFIX_TAG = "toolplane/prefix/v1\n";
let sharedMemo: RenderMemo | undefined;

interface Item {
  kind: "tool" | "skill" | "deferred";
  name: string;
  /** The description as written; "" for deferred names. */
  original: string;
  /** After the per-description cap. */
  capped: string;
  tool?: ToolProjection;
}

/**
 * What the model sees for one provider: the tools array and the system text, fitted to the
 * budget. Over budget, every name stays and descriptions are shortened by water-filling (short
 * ones whole, long ones cut to one common cap on a word boundary, with a visible marker); only
 * when the names alone do not fit are entries left out, from the end (deferred names first, then
 * skills, then tools), and listed. The report lists every cut and every schema conversion.
 */
export function renderCatalog(input: RenderInput): Catalog {
  const adapter = adapterFor(input.provider);
  sharedMemo ??= new RenderMemo();
  const memo = input.memo ?? sharedMemo;
  const settings = input.budget ?? { chars: input.budgetChars ?? 8000 };
  const maxChars = settings.descriptionMaxChars ?? Number.POSITIVE_INFINITY;
  const tokenLimit = settings.tokens ?? undefined;

  const items: Item[] = [];
  for (const tool of input.tools) items.push(item("tool", tool.name, tool.description, maxChars, tool));
  for (const s of sortByName(input.skills ?? [])) items.push(item("skill", s.name, s.description, maxChars));
  for (const name of [...new Set(input.deferred ?? [])].sort())
    items.push(item("deferred", name, "", maxChars));

  const fit = fitBudget(items, settings.chars, tokenLimit);
  const kept = items.slice(0, fit.count);
  const omitted = items.slice(fit.count).map((i) => i.name);
  const texts = kept.map((i) => (i.kind === "deferred" ? "" : cutText(i.capped, fit.cap)));

  const cut: BudgetCut[] = [];
  kept.forEach((i, k) => {
    if (texts[k]!.length < i.original.length)
      cut.push({ name: i.name, original: i.original.length, kept: texts[k]!.length });
  });

  // tools in their wire form, each memoised by content, provider, wire name and kept length
  const tools: unknown[] = [];
  const conversions: SchemaConversion[] = [];
  const renamed: Array<{ name: string; wireName: string }> = [];
  const usedNames = new Set<string>();
  const digests: Buffer[] = [];
  kept.forEach((i, k) => {
    if (i.kind !== "tool") return;
    const tool = i.tool!;
    const pm = memo.provider(tool, adapter.name, () => adapter.convert(tool.parameters));
    let name = wireName(tool.name, adapter.nameRule);
    if (usedNames.has(name)) name = dedupe(name, usedNames, adapter.nameRule.max);
    usedNames.add(name);
    if (name !== tool.name) renamed.push({ name: tool.name, wireName: name });
    const description = texts[k]!;
    const w = memo.wire(pm, name, description.length, () =>
      adapter.wire({ name, description, converted: pm.converted }),
    );
    tools.push(w.wire);
    digests.push(w.digest);
    for (const note of pm.notes) conversions.push(note);
  });

  const skills: CatalogSkill[] = [];
  const deferred: string[] = [];
  kept.forEach((i, k) => {
    if (i.kind === "skill") skills.push({ name: i.name, description: texts[k]! });
    else if (i.kind === "deferred") deferred.push(i.name);
  });
  const system = renderSystem(skills, deferred);

  const hash = createHash("sha256").update(PREFIX_TAG);
  for (const d of digests) hash.update(d);
  hash.update(createHash("sha256").update(system).digest());

  const charsUsed = measure(kept, texts, skills, deferred, (t) => t.length);
  const tokensUsed =
    tokenLimit === undefined ? undefined : measure(kept, texts, skills, deferred, countTokens);
  const tokensBind = tokensUsed !== undefined && tokensUsed / tokenLimit! > charsUsed / settings.chars;
  return {
    provider: adapter.name,
    tools,
    system,
    deferred,
    budget: {
      limit: tokensBind ? tokenLimit! : settings.chars,
      used: tokensBind ? tokensUsed! : charsUsed,
      unit: tokensBind ? "tokens" : "chars",
      truncated: cut.length > 0 || omitted.length > 0,
      chars: { limit: settings.chars, used: charsUsed },
      ...(tokensUsed !== undefined ? { tokens: { limit: tokenLimit!, used: tokensUsed } } : {}),
      ...(fit.cap !== Number.POSITIVE_INFINITY ? { cap: fit.cap } : {}),
    },
    prefixHash: hash.digest("hex"),
    incomplete: input.incomplete ?? false,
    attachments: [...(input.attachments ?? [])],
    report: { conversions, cut, omitted, renamed },
  };
}

function item(
  kind: Item["kind"],
  name: string,
  description: string,
  maxChars: number,
  tool?: ToolProjection,
): Item {
  const capped = description.length > maxChars ? cutText(description, maxChars) : description;
  return tool
    ? { kind, name, original: description, capped, tool }
    : { kind, name, original: description, capped };
}

/** Catalog text measured in one unit: tool names and descriptions, plus the system text's pieces. */
function measure(
  kept: readonly Item[],
  texts: readonly string[],
  skills: readonly CatalogSkill[],
  deferred: readonly string[],
  cost: (text: string) => number,
): number {
  let sum = 0;
  kept.forEach((i, k) => {
    if (i.kind === "tool") sum += cost(i.name) + cost(texts[k]!);
  });
  if (cost === countTokens) {
    for (const piece of systemPieces(skills, deferred)) sum += cost(piece);
  } else sum += renderSystem(skills, deferred).length;
  return sum;
}

interface Fit {
  /** How many items (from the front) are kept. */
  count: number;
  /** The common description cap; Infinity when nothing is cut. */
  cap: number;
}

/**
 * The common cap and how many entries fit. Characters are exact; tokens are planned from each
 * description's token count scaled by the share kept, then checked exactly and the cap lowered
 * until the count fits.
 */
function fitBudget(items: readonly Item[], charLimit: number, tokenLimit: number | undefined): Fit {
  let count = items.length;
  for (;;) {
    const cap = capFor(items.slice(0, count), charLimit, tokenLimit);
    if (cap !== undefined) return { count, cap };
    if (count === 0) return { count: 0, cap: CUT_MARKER.length };
    count = shrink(items, count, charLimit, tokenLimit);
  }
}

function capFor(
  items: readonly Item[],
  charLimit: number,
  tokenLimit: number | undefined,
): number | undefined {
  const described = items.filter((i) => i.kind !== "deferred");
  const lengths = described.map((i) => i.capped.length);
  const skills = described.filter((i) => i.kind === "skill").map((i) => ({ name: i.name, description: "" }));
  const deferred = items.filter((i) => i.kind === "deferred").map((i) => i.name);
  let fixedChars = renderSystem(skills, deferred).length;
  for (const i of described) if (i.kind === "tool") fixedChars += i.name.length;
  let cap = waterFill(lengths, charLimit - fixedChars, (k, c) => Math.min(lengths[k]!, c));
  if (cap === undefined || tokenLimit === undefined) return cap;

  let fixedTokens = 0;
  for (const piece of systemPieces(skills, deferred)) fixedTokens += countTokens(piece);
  for (const i of described) if (i.kind === "tool") fixedTokens += countTokens(i.name);
  const tokens = described.map((i) => countTokens(i.capped));
  const markerTokens = countTokens(CUT_MARKER);
  const planned = waterFill(lengths, tokenLimit - fixedTokens, (k, c) =>
    lengths[k]! <= c ? tokens[k]! : Math.ceil((tokens[k]! * c) / lengths[k]!) + markerTokens,
  );
  if (planned === undefined) return undefined;
  cap = Math.min(cap, planned);
  // exact check: lower the cap until the real token count fits
  for (;;) {
    let used = fixedTokens;
    described.forEach((i) => {
      used += countTokens(cutText(i.capped, cap!));
    });
    if (used <= tokenLimit) return cap;
    if (cap <= CUT_MARKER.length) return undefined;
    cap = Math.max(CUT_MARKER.length, Math.floor(cap * 0.95));
  }
}

/** The largest count below `count` whose minimum cost (names and markers) may fit. */
function shrink(
  items: readonly Item[],
  count: number,
  charLimit: number,
  tokenLimit: number | undefined,
): number {
  const minChars = (i: Item) =>
    i.name.length + Math.min(i.capped.length, CUT_MARKER.length) + (i.kind === "tool" ? 0 : 5);
  let sum = 0;
  let fits = 0;
  for (let k = 0; k < count - 1; k++) {
    sum += minChars(items[k]!);
    if (sum > charLimit) break;
    fits = k + 1;
  }
  if (tokenLimit !== undefined) {
    let tsum = 0;
    let tfits = 0;
    for (let k = 0; k < fits; k++) {
      tsum += countTokens(items[k]!.name) + 2;
      if (tsum > tokenLimit) break;
      tfits = k + 1;
    }
    fits = tfits;
  }
  return Math.min(fits, count - 1);
}

function dedupe(name: string, used: ReadonlySet<string>, max: number): string {
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${name.slice(0, max - suffix.length)}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}
