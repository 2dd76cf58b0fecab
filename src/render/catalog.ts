import { hash } from "node:crypto";
import type { ToolProjection } from "../declare/project.js";
import { adapterFor } from "./adapters.js";
import { cutText } from "./budget.js";
import { dedupe, frameLine, notListedLine, renamedList, sortedByName } from "./catalog-parts.js";
import { lazyConversions, type NotesSource } from "./conversions.js";
import { capped, type Entries, fitBudget, frameChars, tokensOf } from "./fit.js";
import { renderInstructions } from "./instructions.js";
import { deepFreeze, type LineMemo, RenderMemo, type WireMemo } from "./memo.js";
import { PrefixHasher } from "./prefix-hash.js";
import { wireName } from "./schema/names.js";
import { deferredLine, foldSkills, SKILL_DESCRIPTIONS_LEFT_OUT, skillsNotListed } from "./system.js";
import { systemText } from "./system-text.js";
import type {
  Attachment,
  BudgetCut,
  Catalog,
  CatalogSkill,
  CatalogTool,
  NativeDeferral,
  ProviderName,
  SchemaConversion,
  ServerInstructions,
  VolatilePlacement,
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
  /** The caller's own volatile context (agents, the time): passed through, never in the prefix. */
  attachments?: readonly Attachment[];
  /** Connected MCP servers' instructions (see instructions.ts). */
  instructions?: readonly ServerInstructions[];
  /**
   * Where skills, deferred names and instructions go (see volatile.ts); `system` when left out,
   * so this function keeps one text unless asked (`Toolplane.catalog` passes `catalog.volatile`).
   */
  volatile?: VolatilePlacement;
  /** Per-entry memo; a shared default is used when left out. */
  memo?: RenderMemo;
}

let sharedMemo: RenderMemo | undefined;

/** What an incremental re-render reuses from the previous one, per tool position. */
export interface State {
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
export interface Tail {
  tools: readonly ToolProjection[];
  /** The provider's search tool, then each deferred tool's wire form. */
  wires: unknown[];
  cuts: BudgetCut[];
  notes: Array<ConvertedNotes | undefined>;
  renamed: Array<{ name: string; wireName: string }>;
  /** By position: each deferred tool's wire name and cut (an incremental render re-renders one). */
  names: string[];
  cutAt: Array<BudgetCut | undefined>;
}

const NO_TAIL: Tail = { tools: [], wires: [], cuts: [], notes: [], renamed: [], names: [], cutAt: [] };

export function renderFull(input: RenderInput): { catalog: Catalog; state: State | undefined } {
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
  // one Buffer from the joined digests: a Buffer write per tool cost ~0.3 microseconds in its checks alone
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
  const namesOnly = !fit.skillDescriptions;
  for (const skill of kept.skills) {
    const d = skill.description;
    // names only: every description left out (one line says so), so every name is kept
    const text = namesOnly ? "" : d.length > cap ? cutText(d, cap) : d;
    if (text.length < d.length)
      skillCuts.push({
        name: skill.name,
        original: d.length,
        kept: text.length,
        by: namesOnly ? "budget" : cutBy(cap, maxChars),
      });
    skillLines.push(memo.skillLine(skill, text));
    skillTexts.push(text);
  }
  const omittedDeferred = fit.listsOmitted ? all.deferred.length - kept.deferred.length : 0;
  const omittedSkills = fit.listsOmitted ? all.skills.length - kept.skills.length : 0;
  // the markers ride as the skills part's last lines (after the kept skills, before the deferred part)
  const systemLines = [
    ...skillLines,
    ...(namesOnly && kept.skills.length > 0 ? [frameLine(SKILL_DESCRIPTIONS_LEFT_OUT)] : []),
    ...(omittedSkills > 0 ? [notListedLine(omittedSkills)] : []),
  ];
  const deferredNames =
    kept.deferred.length > 0 || omittedDeferred > 0
      ? deferredLine(kept.deferred, omittedDeferred)
      : undefined;
  const listed = memo.system(systemLines, deferredNames, systemText);
  chars += listed.text.length;
  // MCP servers' instructions close the system text: capped one by one, outside the budget
  const instructions = renderInstructions(input.instructions, maxChars);
  skillCuts.push(...instructions.cuts);
  const told = instructions.texts.join("\n\n");
  const system = [listed.text, told].filter((t) => t !== "").join("\n\n");
  // the listing's digest (memoised per line), then the instructions' own
  const systemDigest =
    told === ""
      ? listed.digest
      : hash("sha256", Buffer.from(listed.digest + hash("sha256", told, "binary"), "latin1"), "binary");
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
          omittedSkills,
          namesOnly,
        );
  const tokensBind = tokensUsed !== undefined && tokensUsed / tokenLimit! > chars / settings.chars;
  const catalog: Catalog = {
    provider: adapter.name,
    // each adapter's wire() makes its provider's form (wire-types.ts)
    tools: (tail.wires.length > 0 ? tools.concat(tail.wires) : tools) as CatalogTool[],
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
  // an incremental re-render is offered only for the common case: a character budget, skills
  // with their descriptions (water-filling's totals count them)
  let state: State | undefined;
  if (tokenLimit === undefined && !namesOnly) {
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
        frameChars(kept.skills, kept.deferred, omittedDeferred, omittedSkills) +
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

export function renderOne(
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
  const names: string[] = [];
  const cutAt: Array<BudgetCut | undefined> = [];
  for (const tool of native.tools) {
    let name = wireName(tool.name, adapter.nameRule);
    if (usedNames.has(name)) name = dedupe(name, usedNames, adapter.nameRule.max);
    usedNames.add(name);
    const one = renderOne(memo, adapter, tool, name, maxChars, maxChars);
    wires.push(memo.deferLoading(one.memo));
    if (one.cut) cuts.push(one.cut);
    notes.push(one.notes);
    names.push(name);
    cutAt.push(one.cut);
    if (name !== tool.name) renamed.push({ name: tool.name, wireName: name });
  }
  return { tools: native.tools, wires, cuts, notes, renamed, names, cutAt };
}

function sortedNames(tools: readonly ToolProjection[]): string[] {
  return tools.map((t) => t.name).sort();
}

export function conversionsOf(
  tools: readonly ToolProjection[],
  notes: ReadonlyArray<ConvertedNotes | undefined>,
  tail: Tail,
): SchemaConversion[] {
  if (tail.tools.length === 0) return lazyConversions(tools, notes);
  return lazyConversions([...tools, ...tail.tools], [...notes, ...tail.notes]);
}

/** The report's cut list: the tools' cuts in order, then the skills', then the native tail's. */
export function cutList(
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

/** A tool's conversion notes, made when the list is first read. */
type ConvertedNotes = NotesSource;

/** The input with its lists copied: a caller that edits its arrays in place cannot fool the diff. */
export function frozenInput(input: RenderInput): RenderInput {
  const out: RenderInput = { ...input, tools: [...input.tools] };
  if (input.skills) out.skills = [...input.skills];
  if (input.deferred) out.deferred = [...input.deferred];
  if (input.attachments) out.attachments = [...input.attachments];
  if (input.instructions) out.instructions = [...input.instructions];
  if (input.native) out.native = { ...input.native, tools: [...input.native.tools] };
  return out;
}
