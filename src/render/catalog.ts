import { hash } from "node:crypto";
import type { ToolProjection } from "../declare/project.js";
import { adapterFor } from "./adapters.js";
import { CUT_MARKER, cutText, waterFill } from "./budget.js";
import { lazyConversions, type NotesSource } from "./conversions.js";
import { deepFreeze, type LineMemo, RenderMemo, type SystemMemo, type WireMemo } from "./memo.js";
import { PrefixHasher } from "./prefix-hash.js";
import { wireName } from "./schema/names.js";
import { DEFERRED_HEADER, deferredLine, foldSkills, notListed, SKILLS_HEADER } from "./system.js";
import { countTokens } from "./tokens.js";
import type {
  BudgetCut,
  Catalog,
  CatalogSkill,
  NativeDeferral,
  ProviderName,
  SchemaConversion,
} from "./types.js";

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
  /** Deferred tool names: listed by name only, under one hint line (the client-side form). */
  deferred?: readonly string[];
  /**
   * Deferred tools in the provider's native form instead (Anthropic, OpenAI Responses): the
   * provider's search tool, then each tool in full with `defer_loading: true`, after the resident
   * tools. The provider keeps them out of the model's context until its search loads one, so they
   * count against neither the budget nor `prefixHash`; only `descriptionMaxChars` caps them.
   */
  native?: NativeDeferral;
  budget?: BudgetSettings;
  /** Shorthand for `budget: {chars}`. */
  budgetChars?: number;
  incomplete?: boolean;
  /** Volatile context (agents, connected servers, the time): never part of the stable prefix. */
  attachments?: readonly string[];
  /** Per-entry memo; a shared default is used when left out. */
  memo?: RenderMemo;
}

// digests are 32-character latin1 strings: one byte per character, no Buffer per digest
const LINE_DIGEST = {
  skills: hash("sha256", SKILLS_HEADER, "binary"),
  deferred: hash("sha256", DEFERRED_HEADER, "binary"),
  blank: hash("sha256", "", "binary"),
};
let sharedMemo: RenderMemo | undefined;

/** The entries in budget priority order: tools (registry order), skills (by name), deferred names. */
interface Entries {
  tools: readonly ToolProjection[];
  skills: readonly CatalogSkill[];
  deferred: readonly string[];
}

/**
 * What the model sees for one provider: the tools array and the system text, fitted to the
 * budget. Over budget, every name stays and descriptions are shortened by water-filling (short
 * ones whole, long ones cut to one common cap on a word boundary, with a visible marker); only
 * when the names alone do not fit are entries left out, from the end (deferred names first, then
 * skills, then tools), and listed. The report lists every cut and every schema conversion.
 */
export function renderCatalog(input: RenderInput): Catalog {
  return renderFull(input).catalog;
}

/** What an incremental re-render reuses from the previous one, per tool position. */
interface State {
  input: RenderInput;
  all: Entries;
  /** What water-filling chose (Infinity: nothing to cut), before the per-description cap. */
  fitCap: number;
  cap: number;
  skillCuts: BudgetCut[];
  maxChars: number;
  /** Each kept tool's description length under descriptionMaxChars; updated in place. */
  lengths: number[];
  fixedChars: number;
  /** Water-filling's total at fitCap and at fitCap + 1, kept up to date entry by entry. */
  totalAtCap: number;
  totalPastCap: number;
  /** The resident tools' wire forms: the catalog's own array, never changed once returned. */
  wires: unknown[];
  /** Private to the state, like lengths and cuts: an incremental render updates them in place. */
  hasher: PrefixHasher;
  cuts: Array<BudgetCut | undefined>;
  /** Read lazily by the catalog's report, so copied on change. */
  notes: Array<ConvertedNotes | undefined>;
  renamed: Array<string | undefined>;
  chars: number;
  systemDigest: string;
  /** The native deferral part after the resident tools: reused as is while its input is the same. */
  tail: Tail;
  catalog: Catalog;
}

/** What native deferral adds after the resident tools (empty without it). */
interface Tail {
  tools: readonly ToolProjection[];
  wires: unknown[];
  cuts: BudgetCut[];
  notes: Array<ConvertedNotes | undefined>;
  renamed: Array<{ name: string; wireName: string }>;
}

const NO_TAIL: Tail = { tools: [], wires: [], cuts: [], notes: [], renamed: [] };

function renderFull(input: RenderInput): { catalog: Catalog; state: State | undefined } {
  const adapter = adapterFor(input.provider);
  if (input.native && (input.deferred?.length ?? 0) > 0) {
    throw new TypeError("give deferred tools either by name (deferred) or natively (native), not both");
  }
  sharedMemo ??= new RenderMemo();
  const memo = input.memo ?? sharedMemo;
  const settings = input.budget ?? { chars: input.budgetChars ?? 8000 };
  const maxChars = settings.descriptionMaxChars ?? Number.POSITIVE_INFINITY;
  const tokenLimit = settings.tokens ?? undefined;

  const all: Entries = {
    tools: input.tools,
    skills: sortedByName(foldSkills(input.skills ?? [])),
    deferred: [...new Set(input.deferred ?? [])].sort(),
  };
  const fit = fitBudget(all, settings.chars, tokenLimit, maxChars);
  const kept = fit.kept;
  const cap = Math.min(fit.cap, maxChars);

  const n = kept.tools.length;
  const tools: unknown[] = new Array(n);
  // one Buffer from the joined digests: a Buffer write per tool cost ~0.3 µs in its checks alone
  const digests: string[] = new Array(n);
  const cuts: Array<BudgetCut | undefined> = new Array(n);
  const notes: Array<ConvertedNotes | undefined> = new Array(n);
  const renamedAt: Array<string | undefined> = new Array(n);
  const usedNames = new Set<string>();
  let chars = 0;
  kept.tools.forEach((tool, i) => {
    let name = wireName(tool.name, adapter.nameRule);
    if (usedNames.has(name)) name = dedupe(name, usedNames, adapter.nameRule.max);
    usedNames.add(name);
    const one = renderOne(memo, adapter, tool, name, cap, maxChars);
    tools[i] = one.wire;
    digests[i] = one.digest;
    cuts[i] = one.cut;
    notes[i] = one.notes;
    renamedAt[i] = name !== tool.name ? name : undefined;
    chars += tool.name.length + one.keptLength;
  });
  const tail = input.native ? renderTail(memo, adapter, input.native, usedNames, maxChars) : NO_TAIL;

  // the system text, with a digest per line so an unchanged skill is not hashed again
  const skillCuts: BudgetCut[] = [];
  const skillLines: LineMemo[] = [];
  const skillTexts: string[] = [];
  for (const skill of kept.skills) {
    const d = skill.description;
    const text = d.length > cap ? cutText(d, cap) : d;
    if (text.length < d.length)
      skillCuts.push({ name: skill.name, original: d.length, kept: text.length, by: cutBy(cap, maxChars) });
    skillLines.push(memo.skillLine(skill, text));
    skillTexts.push(text);
  }
  const omittedDeferred = fit.listsOmitted ? all.deferred.length - kept.deferred.length : 0;
  const deferredNames =
    kept.deferred.length > 0 || omittedDeferred > 0
      ? deferredLine(kept.deferred, omittedDeferred)
      : undefined;
  const { text: system, digest: systemDigest } = memo.system(skillLines, deferredNames, systemText);
  chars += system.length;
  const hasher = new PrefixHasher(Buffer.from(digests.join(""), "latin1"));
  const prefixHash = hasher.hex(systemDigest);
  const cut = cutList(cuts, skillCuts, tail.cuts);
  const renamed = [...renamedList(kept.tools, renamedAt), ...tail.renamed];

  const omitted = [
    ...all.tools.slice(kept.tools.length).map((t) => t.name),
    ...all.skills.slice(kept.skills.length).map((s) => s.name),
    ...all.deferred.slice(kept.deferred.length),
  ];
  const tokensUsed =
    tokenLimit === undefined
      ? undefined
      : tokensOf(
          kept,
          omittedDeferred,
          (t) => (t.description.length > cap ? cutText(t.description, cap) : t.description),
          skillTexts,
        );
  const tokensBind = tokensUsed !== undefined && tokensUsed / tokenLimit! > chars / settings.chars;
  const catalog: Catalog = {
    provider: adapter.name,
    tools: tail.wires.length > 0 ? tools.concat(tail.wires) : tools,
    system,
    deferred: input.native ? sortedNames(input.native.tools) : [...kept.deferred],
    budget: {
      limit: tokensBind ? tokenLimit! : settings.chars,
      used: tokensBind ? tokensUsed! : chars,
      unit: tokensBind ? "tokens" : "chars",
      truncated: cut.length > 0 || omitted.length > 0,
      chars: { limit: settings.chars, used: chars },
      ...(tokensUsed !== undefined ? { tokens: { limit: tokenLimit!, used: tokensUsed } } : {}),
      ...(fit.cap !== Number.POSITIVE_INFINITY ? { cap } : {}),
    },
    prefixHash,
    incomplete: input.incomplete ?? false,
    attachments: [...(input.attachments ?? [])],
    report: { conversions: conversionsOf(kept.tools, notes, tail), cut, omitted, renamed },
  };
  if (input.native?.headers && Object.keys(input.native.headers).length > 0)
    catalog.headers = { ...input.native.headers };
  // an incremental re-render is offered only for the common case: a character budget, no skill cut
  let state: State | undefined;
  if (tokenLimit === undefined) {
    const lengths = kept.tools.map((t) => Math.min(t.description.length, maxChars));
    const skillLengths = kept.skills.map((s) => Math.min(s.description.length, maxChars));
    state = {
      input: frozenInput(input),
      all,
      fitCap: fit.cap,
      cap,
      skillCuts,
      maxChars,
      lengths,
      fixedChars:
        frameChars(kept.skills, kept.deferred, omittedDeferred) +
        kept.tools.reduce((sum, t) => sum + t.name.length, 0),
      totalAtCap: capped(lengths, fit.cap) + capped(skillLengths, fit.cap),
      totalPastCap: capped(lengths, fit.cap + 1) + capped(skillLengths, fit.cap + 1),
      wires: tools,
      hasher,
      cuts,
      notes,
      renamed: renamedAt,
      chars,
      systemDigest,
      tail,
      catalog,
    };
  }
  return { catalog, state };
}

interface One {
  memo: WireMemo;
  wire: unknown;
  digest: string;
  keptLength: number;
  cut: BudgetCut | undefined;
  notes: ConvertedNotes | undefined;
}

function renderOne(
  memo: RenderMemo,
  adapter: ReturnType<typeof adapterFor>,
  tool: ToolProjection,
  name: string,
  cap: number,
  maxChars: number,
): One {
  const entry = memo.entry(tool);
  const description =
    tool.description.length > cap ? memo.cut(entry, tool.description, cap) : tool.description;
  const schema = memo.schema(entry, adapter, tool.parameters);
  const w = memo.wire(entry, adapter, schema, name, description);
  return {
    memo: w,
    wire: w.wire,
    digest: w.digest,
    keptLength: description.length,
    cut:
      description.length < tool.description.length
        ? {
            name: tool.name,
            original: tool.description.length,
            kept: description.length,
            by: cutBy(cap, maxChars),
          }
        : undefined,
    notes: schema,
  };
}

/** Why a description at `cap` was cut: the per-description cap, or the budget's lower one. */
function cutBy(cap: number, maxChars: number): BudgetCut["by"] {
  return cap < maxChars ? "budget" : "descriptionMaxChars";
}

/**
 * The native deferral part: the provider's search tool, then each deferred tool in full (its
 * description capped only by descriptionMaxChars) marked `defer_loading: true`.
 */
function renderTail(
  memo: RenderMemo,
  adapter: ReturnType<typeof adapterFor>,
  native: NativeDeferral,
  usedNames: Set<string>,
  maxChars: number,
): Tail {
  const wires: unknown[] = [deepFreeze(structuredClone(native.searchTool))];
  const cuts: BudgetCut[] = [];
  const notes: Array<ConvertedNotes | undefined> = [];
  const renamed: Array<{ name: string; wireName: string }> = [];
  for (const tool of native.tools) {
    let name = wireName(tool.name, adapter.nameRule);
    if (usedNames.has(name)) name = dedupe(name, usedNames, adapter.nameRule.max);
    usedNames.add(name);
    const one = renderOne(memo, adapter, tool, name, maxChars, maxChars);
    wires.push(memo.deferLoading(one.memo));
    if (one.cut) cuts.push(one.cut);
    notes.push(one.notes);
    if (name !== tool.name) renamed.push({ name: tool.name, wireName: name });
  }
  return { tools: native.tools, wires, cuts, notes, renamed };
}

function sortedNames(tools: readonly ToolProjection[]): string[] {
  return tools.map((t) => t.name).sort();
}

function conversionsOf(
  tools: readonly ToolProjection[],
  notes: ReadonlyArray<ConvertedNotes | undefined>,
  tail: Tail,
): SchemaConversion[] {
  if (tail.tools.length === 0) return lazyConversions(tools, notes);
  return lazyConversions([...tools, ...tail.tools], [...notes, ...tail.notes]);
}

function renamedList(tools: readonly ToolProjection[], at: ReadonlyArray<string | undefined>) {
  const out: Array<{ name: string; wireName: string }> = [];
  at.forEach((w, i) => {
    if (w !== undefined) out.push({ name: tools[i]!.name, wireName: w });
  });
  return out;
}

/**
 * Renders a stream of catalogs for one consumer. After one full render, a re-render whose input
 * differs only in a few tools (same positions and names, same skills, deferred names and budget
 * settings, and a water-filling cap that does not move) renders only the changed tools and
 * reuses the rest by position; anything else falls back to a full render. The output is
 * byte-for-byte what `renderCatalog` gives for the same input.
 */
export class CatalogRenderer {
  private state: State | undefined;
  readonly memo: RenderMemo;

  constructor(memo = new RenderMemo()) {
    this.memo = memo;
  }

  render(input: RenderInput): Catalog {
    const withMemo = { ...input, memo: input.memo ?? this.memo };
    const quick = this.state ? incremental(this.state, withMemo) : undefined;
    if (quick) {
      this.state = quick;
      return quick.catalog;
    }
    const full = renderFull(withMemo);
    this.state = full.state;
    return full.catalog;
  }
}

const MAX_CHANGED = 64;

function incremental(prev: State, input: RenderInput): State | undefined {
  const p = prev.input;
  if (
    input.provider !== p.provider ||
    input.memo !== p.memo ||
    input.incomplete !== p.incomplete ||
    !sameBudget(input, p) ||
    !sameList(input.skills, p.skills) ||
    !sameList(input.deferred, p.deferred) ||
    !sameList(input.attachments, p.attachments) ||
    !sameNative(input.native, p.native) ||
    input.tools.length !== p.tools.length ||
    prev.catalog.report.omitted.length > 0
  )
    return undefined;
  const changed: number[] = [];
  const now = input.tools;
  const was = p.tools;
  for (let i = 0, n = now.length; i < n; i++) {
    if (now[i] !== was[i]) {
      if (now[i]!.name !== was[i]!.name || changed.length >= MAX_CHANGED) return undefined;
      changed.push(i);
    }
  }
  const limit = input.budget?.chars ?? input.budgetChars ?? 8000;
  // the cap must not move, or every cut description would change: water-filling would pick the
  // same cap exactly when it still fits and one more character does not. Its totals move by the
  // changed entries only, so this check costs O(changed), not O(tools).
  const c = prev.fitCap;
  const lengths = changed.map((i) => Math.min(input.tools[i]!.description.length, prev.maxChars));
  let totalAtCap = prev.totalAtCap;
  let totalPastCap = prev.totalPastCap;
  changed.forEach((i, k) => {
    const was = prev.lengths[i]!;
    const now = lengths[k]!;
    totalAtCap += Math.min(now, c) - Math.min(was, c);
    totalPastCap += Math.min(now, c + 1) - Math.min(was, c + 1);
  });
  const available = limit - prev.fixedChars;
  if (totalAtCap > available) return undefined;
  if (c !== Number.POSITIVE_INFINITY && totalPastCap <= available) return undefined;

  const adapter = adapterFor(input.provider);
  const memo = input.memo!;
  // render every changed tool before touching the state, so a throw leaves it as it was
  const rendered = changed.map((i) =>
    renderOne(memo, adapter, input.tools[i]!, prev.renamed[i] ?? p.tools[i]!.name, prev.cap, prev.maxChars),
  );
  const wires = prev.wires.slice();
  const notes = prev.notes.slice();
  let chars = prev.chars;
  changed.forEach((i, k) => {
    const one = rendered[k]!;
    chars += one.keptLength - (prev.cuts[i]?.kept ?? p.tools[i]!.description.length);
    wires[i] = one.wire;
    notes[i] = one.notes;
    prev.hasher.digests.write(one.digest, 32 * i, 32, "latin1");
    prev.cuts[i] = one.cut;
    prev.lengths[i] = lengths[k]!;
    (p.tools as ToolProjection[])[i] = input.tools[i]!;
  });
  // changed is in position order: hash again from the first
  if (changed.length > 0) prev.hasher.changedFrom(changed[0]!);
  const old = prev.catalog;
  const cut = cutList(prev.cuts, prev.skillCuts, prev.tail.cuts);
  const catalog: Catalog = {
    ...old,
    tools: prev.tail.wires.length > 0 ? wires.concat(prev.tail.wires) : wires,
    budget: {
      ...old.budget,
      used: chars,
      chars: { limit, used: chars },
      truncated: cut.length > 0 || old.report.omitted.length > 0,
    },
    prefixHash: prev.hasher.hex(prev.systemDigest),
    attachments: [...(input.attachments ?? [])],
    report: { ...old.report, conversions: conversionsOf(p.tools, notes, prev.tail), cut },
  };
  // the lists compared equal, so the state keeps its own copies of them; only the tools moved
  const next: RenderInput = {
    ...input,
    tools: p.tools,
    skills: p.skills,
    deferred: p.deferred,
    attachments: p.attachments,
    native: p.native,
  };
  return { ...prev, input: next, totalAtCap, totalPastCap, wires, notes, chars, catalog };
}

/** The system text and its digest (over the line digests) from the skill lines and deferred names. */
function systemText(skillLines: readonly LineMemo[], deferredNames: string | undefined): SystemMemo {
  const lines: string[] = [];
  let lineDigests = "";
  if (skillLines.length > 0) {
    lines.push(SKILLS_HEADER);
    lineDigests += LINE_DIGEST.skills;
    for (const line of skillLines) {
      lines.push(line.text);
      lineDigests += line.digest;
    }
  }
  if (deferredNames !== undefined) {
    if (lines.length > 0) {
      lines.push("");
      lineDigests += LINE_DIGEST.blank;
    }
    lines.push(DEFERRED_HEADER, deferredNames);
    lineDigests += LINE_DIGEST.deferred + hash("sha256", deferredNames, "binary");
  }
  return {
    lines: skillLines,
    deferredNames,
    text: lines.join("\n"),
    digest: hash("sha256", Buffer.from(lineDigests, "latin1"), "binary"),
  };
}

/** The report's cut list: the tools' cuts in order, then the skills', then the native tail's. */
function cutList(
  tools: ReadonlyArray<BudgetCut | undefined>,
  skills: readonly BudgetCut[],
  tail: readonly BudgetCut[],
): BudgetCut[] {
  const out: BudgetCut[] = [];
  for (const c of tools) if (c !== undefined) out.push(c);
  for (const c of skills) out.push(c);
  for (const c of tail) out.push(c);
  return out;
}

/** Water-filling's total for cap `c`: each length, or `c` when longer. */
function capped(lengths: readonly number[], c: number): number {
  let sum = 0;
  for (const l of lengths) sum += Math.min(l, c);
  return sum;
}

/** The input with its lists copied: a caller that edits its arrays in place cannot fool the diff. */
function frozenInput(input: RenderInput): RenderInput {
  const out: RenderInput = { ...input, tools: [...input.tools] };
  if (input.skills) out.skills = [...input.skills];
  if (input.deferred) out.deferred = [...input.deferred];
  if (input.attachments) out.attachments = [...input.attachments];
  if (input.native) out.native = { ...input.native, tools: [...input.native.tools] };
  return out;
}

function sameNative(a: NativeDeferral | undefined, b: NativeDeferral | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    sameList(a.tools, b.tools) &&
    JSON.stringify(a.searchTool) === JSON.stringify(b.searchTool) &&
    JSON.stringify(a.headers ?? {}) === JSON.stringify(b.headers ?? {})
  );
}

function sameBudget(a: RenderInput, b: RenderInput): boolean {
  const x = a.budget ?? { chars: a.budgetChars ?? 8000 };
  const y = b.budget ?? { chars: b.budgetChars ?? 8000 };
  return (
    x.chars === y.chars &&
    (x.tokens ?? null) === (y.tokens ?? null) &&
    x.descriptionMaxChars === y.descriptionMaxChars
  );
}

function sameList<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean {
  if (a === b) return true;
  if ((a?.length ?? 0) !== (b?.length ?? 0)) return false;
  for (let i = 0; i < (a?.length ?? 0); i++) if (a![i] !== b![i]) return false;
  return true;
}

/** A tool's conversion notes, made when the list is first read. */
type ConvertedNotes = NotesSource;

interface Fit {
  kept: Entries;
  /** The common description cap; Infinity when nothing is cut. */
  cap: number;
  /** Whether the budget holds the note on deferred names left out (false only when nothing fits). */
  listsOmitted: boolean;
}

/** Characters of the system text's frame: headers, `- name: ` prefixes, separators. */
function frameChars(
  skills: readonly CatalogSkill[],
  deferred: readonly string[],
  omittedDeferred: number,
): number {
  let n = 0;
  if (skills.length > 0) {
    n += SKILLS_HEADER.length;
    for (const s of skills) n += 1 + 4 + s.name.length; // "\n- name: "
  }
  if (deferred.length > 0 || omittedDeferred > 0) {
    if (skills.length > 0) n += 2;
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
function fitBudget(all: Entries, charLimit: number, tokenLimit: number | undefined, maxChars: number): Fit {
  let count = all.tools.length + all.skills.length + all.deferred.length;
  for (;;) {
    const kept = take(all, count);
    const omitted = all.deferred.length - kept.deferred.length;
    const cap = capFor(kept, omitted, charLimit, tokenLimit, maxChars);
    if (cap !== undefined) return { kept, cap, listsOmitted: true };
    if (count === 0) return { kept, cap: CUT_MARKER.length, listsOmitted: false };
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

function capFor(
  kept: Entries,
  omittedDeferred: number,
  charLimit: number,
  tokenLimit: number | undefined,
  maxChars: number,
): number | undefined {
  const lengths: number[] = [];
  let fixed = frameChars(kept.skills, kept.deferred, omittedDeferred);
  for (const t of kept.tools) {
    fixed += t.name.length;
    lengths.push(Math.min(t.description.length, maxChars));
  }
  for (const s of kept.skills) lengths.push(Math.min(s.description.length, maxChars));
  let cap = waterFill(lengths, charLimit - fixed, (k, c) => Math.min(lengths[k]!, c));
  if (cap === undefined || tokenLimit === undefined) return cap;

  const descriptions = [...kept.tools.map((t) => t.description), ...kept.skills.map((s) => s.description)];
  const noText = { ...kept, tools: kept.tools.map((t) => ({ ...t, description: "" })) };
  const fixedTokens = tokensOf(
    noText,
    omittedDeferred,
    () => "",
    kept.skills.map(() => ""),
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
function tokensOf(
  kept: Entries,
  omittedDeferred: number,
  toolText: (t: ToolProjection) => string,
  skillTexts: readonly string[],
): number {
  let sum = 0;
  for (const t of kept.tools) sum += countTokens(t.name) + countTokens(toolText(t));
  if (kept.skills.length > 0) {
    sum += countTokens(SKILLS_HEADER);
    kept.skills.forEach((s, i) => {
      sum += countTokens(`- ${s.name}: `) + countTokens(skillTexts[i]!);
    });
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
    ...all.skills.map((s) => ({
      name: s.name,
      min: Math.min(s.description.length, CUT_MARKER.length),
      overhead: 5,
    })),
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

function sortedByName(skills: readonly CatalogSkill[]): readonly CatalogSkill[] {
  for (let i = 1; i < skills.length; i++) {
    if (skills[i - 1]!.name > skills[i]!.name) {
      return [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
  }
  return skills;
}

function dedupe(name: string, used: ReadonlySet<string>, max: number): string {
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${name.slice(0, max - suffix.length)}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}
