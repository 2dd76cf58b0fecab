import type { AnyTool } from "../declare/types.js";
import type { EmbedderConfig } from "../defer/embed/embedder.js";
import { rankerFor } from "../defer/embed/factory.js";
import {
  type DeferConfig,
  type DeferPlan,
  DeferSession,
  entryFromTool,
  explainPlan,
  type ResidencyChange,
  type ResidencyExplanation,
  type SessionEntry,
  type ThresholdBand,
  TOOL_SEARCH_NAME,
  toolSearchTool,
} from "../defer/index.js";
import type { DeferralReport, ProviderName, RenderReport, ResidencyMove } from "../render/index.js";
import { CatalogsSeen } from "./catalogs-seen.js";
import { type MarkRules, markOf } from "./marks.js";
import type { VisibleTool } from "./visibility.js";

export type { VisibleTool } from "./visibility.js";

/** The `defer.*` keys plus where the tools' deferral marks come from. */
/** `embedder`: `search.embedder`, which tool_search's ranking follows (undefined: left as it is). */
export type SessionDeferConfig = DeferConfig & { marks?: MarkRules; embedder?: EmbedderConfig };

/** Where each tool of the session's last plan sits and why, with the threshold band. */
export interface DeferralExplanation {
  trigger: string;
  tools: ResidencyExplanation[];
  band: ThresholdBand;
}

export interface SessionPlan {
  plan: DeferPlan;
  /** Why deferral is on or off (the plan's trigger, unless tool_search itself is withheld). */
  trigger: string;
}

/**
 * One Toolplane session's deferral: the DeferSession (carried state, loaded set, search index),
 * the `tool_search` tool bound to it, and the residency changes no catalog has shown yet. Every
 * read of the tool set (a catalog, a host turn, the MCP server's list) plans through here, so
 * they agree on what is deferred and the loaded set reaches all of them.
 */
export class SessionDeferral {
  readonly session = new DeferSession();
  /** The plane's environment: the embedder's key and vector cache folder come from it. */
  env: NodeJS.ProcessEnv = process.env;
  readonly searchTool: AnyTool;
  /** The same search, ranking only (see searchToolFor). */
  private readonly rankingSearchTool: AnyTool;
  /** The last planned tools by name, built on first ask (a catalog with deferral off never asks). */
  private byNameMap: Map<string, AnyTool> | undefined;
  /** Tools are frozen, so a tool's light entry is built once per namespace and provider. */
  private readonly entries = new WeakMap<AnyTool, { entry: SessionEntry; provider: string }>();
  private unreported: ResidencyChange[] = [];
  /** The last planned list and its entries: the same list (an unchanged snapshot) is not re-read. */
  private last: { visible: readonly VisibleTool[]; entries: SessionEntry[]; light: boolean } | undefined;
  /** The last plan made with deferral off, and what it was made from. */
  private lastOff:
    | { visible: readonly VisibleTool[]; withheld: string | undefined; plan: DeferPlan; planned: SessionPlan }
    | undefined;
  /** The last plan made with deferral on, and what it was made from (see plan()). */
  private lastOn:
    | {
        visible: readonly VisibleTool[];
        config: SessionDeferConfig;
        loaded: readonly string[];
        plan: DeferPlan;
        planned: SessionPlan;
      }
    | undefined;
  /** What each provider's catalog showed: deferral's form ("native": the provider's own search loads them), renames. */
  readonly seen = new CatalogsSeen();
  /**
   * The tools of a plan's resident names, in its order: kept while the plan is the same and
   * patched when a tool changes in place, so a catalog does not look up every name each turn.
   */
  private residentCache: ToolList | undefined;
  /** The same for `plan.deferred` (the provider's native search sends them in full). */
  private deferredCache: ToolList | undefined;
  /** Deferred tools tool_search has not loaded, for the last plan (built on first ask). */
  private unloadedSet: { plan: DeferPlan; loaded: number; names: Set<string> } | undefined;

  constructor() {
    const describe = (name: string) => this.byName.get(name)?.description ?? "";
    this.searchTool = toolSearchTool(this.session, describe);
    this.rankingSearchTool = toolSearchTool(this.session, describe, { loads: false });
  }

  /**
   * tool_search for calls from `provider`'s catalog: in the native form it runs only as the
   * provider's client-run search (defer.nativeSearch: "toolplane"), and the provider loads what it
   * names, so it ranks and loads nothing (a load would move those tools out of the deferred tail
   * and change the request). Without a provider: as unloaded() decides the form.
   */
  searchToolFor(provider?: ProviderName): AnyTool {
    return this.seen.form(provider) === "native" ? this.rankingSearchTool : this.searchTool;
  }

  private get byName(): Map<string, AnyTool> {
    this.byNameMap ??= new Map((this.last?.visible ?? []).map((v) => [v.tool.name, v.tool]));
    return this.byNameMap;
  }

  /**
   * Plans residency for the visible tools. `searchWithheld` (why tool_search may not be used
   * here) turns deferral off: a tool listed by name that nothing can load would be lost.
   */
  plan(visible: readonly VisibleTool[], config: SessionDeferConfig, searchWithheld?: string): SessionPlan {
    if (config.embedder !== undefined) this.session.embedWith(config.embedder, (c) => rankerFor(c, this.env));
    // off (by the key, or because tool_search is withheld): nothing is deferred, searched or
    // measured, so each tool's entry is its name alone; building search text for 10,000 tools
    // would be the whole cost of a plan that decides nothing
    const off = config.mode === "off" || Boolean(searchWithheld);
    if (off && this.last?.light && this.last.visible !== visible && sameNames(this.last.visible, visible)) {
      // off, and the same names in the same order (a tool changed in place): the entries, which
      // are names alone when off, and so the plan, are the last ones; only the tools are new
      const before = this.last.visible;
      for (let i = 0; i < visible.length; i++)
        if (visible[i]!.tool !== before[i]!.tool) this.swapTool(visible[i]!.tool);
      if (this.lastOff?.visible === before) this.lastOff.visible = visible;
      this.last = { visible, entries: this.last.entries, light: true };
    }
    if (!off) this.inPlace(visible, config);
    if (this.last?.visible !== visible || this.last.light !== off) {
      this.byNameMap = undefined;
      this.residentCache = undefined;
      this.deferredCache = undefined;
      const entries = off
        ? visible.map((v) => ({ name: v.tool.name, description: "", params: "" }))
        : visible.map((v) => this.entryOf(v, config.marks));
      this.last = { visible, entries, light: off };
    }
    // off, the same tools as the last plan, which was the session's latest: the plan is that one
    // (nothing can be deferred, loaded or moved), so an unchanged set costs nothing to re-plan
    const again = this.lastOff;
    if (
      off &&
      again?.visible === visible &&
      again.withheld === searchWithheld &&
      again.plan === this.session.current
    )
      return again.planned;
    // on, the same tools, the same defer.* keys, nothing loaded since, and that plan the session's
    // latest: planning again would give it again (the planner is pure and an unchanged set never
    // flips), so every turn of an unchanged 10,000-tool set does not walk them all
    const on = this.lastOn;
    if (
      !off &&
      on?.visible === visible &&
      on.plan === this.session.current &&
      on.loaded === this.session.loaded &&
      sameDeferConfig(on.config, config)
    )
      return on.planned;
    const entries = this.last.entries;
    const plan = this.session.plan(entries, searchWithheld ? { ...config, mode: "off" } : config);
    let planned: SessionPlan;
    if (!searchWithheld) {
      for (const c of plan.changes) this.unreported.push(c);
      planned = { plan, trigger: plan.trigger };
    } else {
      const trigger = `nothing is deferred because tool_search is not available: ${searchWithheld}`;
      for (const c of plan.changes)
        this.unreported.push(c.reason === plan.trigger ? { ...c, reason: trigger } : c);
      planned = { plan, trigger };
    }
    this.lastOff = off ? { visible, withheld: searchWithheld, plan, planned } : undefined;
    this.lastOn = off ? undefined : { visible, config, loaded: this.session.loaded, plan, planned };
    return planned;
  }

  /** A tool of the last plan by name (tool_search included); throws for a name it never planned. */
  toolNamed(name: string): AnyTool {
    if (name === TOOL_SEARCH_NAME) return this.searchTool;
    const tool = this.byName.get(name);
    if (!tool) throw new Error(`internal: "${name}" is not in the planned tool set`);
    return tool;
  }

  /**
   * Deferral on, and a tool changed in place (the same names in the same order) whose mark is
   * the same, with no byte or token figure: the plan reads names and marks alone, so it is the
   * last one. The entries are the last ones with the changed tools' new search entries, which
   * the search index reads on its next sync; the plan is kept. Anything else plans again.
   */
  private inPlace(visible: readonly VisibleTool[], config: SessionDeferConfig): void {
    const last = this.last;
    const on = this.lastOn;
    if (!last || last.light || last.visible === visible || on?.visible !== last.visible) return;
    if ((config.maxSchemaBytes ?? null) !== null || (config.thresholdTokens ?? null) !== null) return;
    if (!sameDeferConfig(on.config, config) || on.plan !== this.session.current) return;
    if (on.loaded !== this.session.loaded || !sameNames(last.visible, visible)) return;
    let entries: SessionEntry[] | undefined;
    const swapped: AnyTool[] = [];
    for (let i = 0; i < visible.length; i++) {
      if (visible[i]!.tool === last.visible[i]!.tool) continue;
      const entry = this.entryOf(visible[i]!, config.marks);
      const before = last.entries[i]!;
      if (entry.mark !== before.mark || entry.markedBy !== before.markedBy) return;
      entries ??= last.entries.slice();
      entries[i] = entry;
      swapped.push(visible[i]!.tool);
    }
    for (const tool of swapped) this.swapTool(tool);
    this.last = { visible, entries: entries ?? last.entries, light: false };
    this.lastOn = { ...on, visible };
    if (entries) this.session.refresh(entries);
  }

  /** The tools of `plan.resident`, in order (tool_search included). */
  residentTools(plan: DeferPlan): readonly AnyTool[] {
    if (this.residentCache?.names !== plan.resident) this.residentCache = this.toolList(plan.resident);
    return this.residentCache.tools;
  }

  /** The tools of `plan.deferred`, in order. */
  deferredTools(plan: DeferPlan): readonly AnyTool[] {
    if (this.deferredCache?.names !== plan.deferred) this.deferredCache = this.toolList(plan.deferred);
    return this.deferredCache.tools;
  }

  private toolList(names: readonly string[]): ToolList {
    // the plan's names are the visible tools' own strings, in their order when nothing is
    // deferred or loaded: then the list is the visible tools, with no lookup by name
    const visible = this.last?.visible;
    if (visible !== undefined && visible.length === names.length) {
      let i = 0;
      while (i < names.length && names[i] === visible[i]!.tool.name) i++;
      if (i === names.length) return { names, tools: visible.map((v) => v.tool) };
    }
    return { names, tools: names.map((n) => this.toolNamed(n)) };
  }

  /** A tool changed in place (same name): it replaces the old one by name and in the kept lists. */
  private swapTool(tool: AnyTool): void {
    this.byNameMap?.set(tool.name, tool);
    this.residentCache = swapped(this.residentCache, tool);
    this.deferredCache = swapped(this.deferredCache, tool);
  }

  /** Plans once if nothing has yet, so a first call (tool_search before any catalog) sees the deferred set. */
  ensurePlanned(
    visible: () => readonly VisibleTool[],
    config: SessionDeferConfig,
    searchWithheld?: string,
  ): void {
    if (this.session.current === undefined) this.plan(visible(), config, searchWithheld);
  }

  /**
   * Deferred tools the model may not call yet: listed by name only and not loaded by tool_search.
   * Empty for calls from a catalog that used the provider's native search (the provider loads
   * them, and the model then calls them by name) or before anything was planned. `provider`: the
   * catalog the calls come from; without it, the form this session's catalogs agree on (none
   * rendered, or forms that differ: listed by name, so tool_search first).
   */
  unloaded(provider?: ProviderName): ReadonlySet<string> {
    const plan = this.session.current;
    if (plan === undefined || this.seen.form(provider) === "native") return EMPTY;
    const loaded = this.session.loaded;
    const hit = this.unloadedSet;
    if (hit?.plan === plan && hit.loaded === loaded.length) return hit.names;
    const names = new Set(plan.deferred);
    for (const n of loaded) names.delete(n);
    this.unloadedSet = { plan, loaded: loaded.length, names };
    return names;
  }

  /**
   * Why each tool of the last plan is resident or deferred, from the entries and config that plan
   * read (give the same config plan() got). Undefined before anything was planned.
   */
  explain(config: DeferConfig, trigger: string): DeferralExplanation | undefined {
    const plan = this.session.current;
    if (!plan || !this.last) return undefined;
    return { trigger, ...explainPlan(this.last.entries, config, plan) };
  }

  /** Loads deferred tools of the last plan by name, as tool_search would; returns those newly loaded. */
  load(names: readonly string[]): string[] {
    return this.session.load(names);
  }

  /**
   * The report part for a catalog; hands over the changes planned since the previous one, and
   * records what the catalog showed the model (its form and renamed tools) for calls from it.
   */
  report(
    provider: ProviderName,
    form: DeferralReport["form"],
    trigger: string,
    renamed: RenderReport["renamed"],
  ): DeferralReport {
    this.seen.record(provider, form, renamed);
    const changes = groupChanges(this.unreported);
    this.unreported = [];
    return { form, trigger, loaded: [...this.session.loaded], changes };
  }

  private entryOf(v: VisibleTool, marks: MarkRules | undefined): SessionEntry {
    const hit = this.entries.get(v.tool);
    if (hit && (hit.entry.namespace ?? "") === v.namespace && hit.provider === v.provider) return hit.entry;
    const entry: SessionEntry = entryFromTool(v.tool, v.namespace);
    const marked = marks ? markOf(v, marks) : undefined;
    if (marked) {
      entry.mark = marked.mark;
      entry.markedBy = marked.markedBy;
    }
    this.entries.set(v.tool, { entry, provider: v.provider });
    return entry;
  }
}

const EMPTY: ReadonlySet<string> = new Set();

/** A plan's list of names and their tools, with each name's place once a tool is swapped. */
interface ToolList {
  names: readonly string[];
  tools: AnyTool[];
  at?: Map<string, number>;
}

/** The list with `tool` in its name's place: a new array, since a catalog compares against the last one. */
function swapped(list: ToolList | undefined, tool: AnyTool): ToolList | undefined {
  if (!list) return list;
  list.at ??= new Map(list.names.map((n, i) => [n, i]));
  const i = list.at.get(tool.name);
  if (i === undefined) return list;
  const tools = list.tools.slice();
  tools[i] = tool;
  return { ...list, tools };
}

/** The same defer.* keys and marks (marks are kept per configuration, so compared by identity). */
function sameDeferConfig(a: SessionDeferConfig, b: SessionDeferConfig): boolean {
  return (
    a.mode === b.mode &&
    a.threshold === b.threshold &&
    (a.maxSchemaBytes ?? null) === (b.maxSchemaBytes ?? null) &&
    (a.thresholdTokens ?? null) === (b.thresholdTokens ?? null) &&
    a.marks === b.marks &&
    a.held === b.held &&
    a.resident.length === b.resident.length &&
    a.resident.every((n, i) => b.resident[i] === n)
  );
}

function sameNames(a: readonly VisibleTool[], b: readonly VisibleTool[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && a[i]!.tool.name !== b[i]!.tool.name) return false;
  return true;
}

/** Changes grouped by (from, to, reason), in the order each group first appears; names keep their order. */
export function groupChanges(changes: readonly ResidencyChange[]): ResidencyMove[] {
  // keyed by the (from, to) pair, then by the reason string itself: a key joined from the three
  // was a new string to hash for each of a cold catalog's 10,000 arrivals, where one reason
  // string is usually shared by all of them
  const byMove = new Map<string, Map<string, ResidencyMove>>();
  const order: ResidencyMove[] = [];
  let last: ResidencyMove | undefined;
  for (const c of changes) {
    let g = last;
    if (g === undefined || g.reason !== c.reason || g.from !== c.from || g.to !== c.to) {
      const pair = `${c.from}>${c.to}`;
      let reasons = byMove.get(pair);
      if (reasons === undefined) {
        reasons = new Map();
        byMove.set(pair, reasons);
      }
      g = reasons.get(c.reason);
      if (g === undefined) {
        g = { from: c.from, to: c.to, reason: c.reason, names: [] };
        reasons.set(c.reason, g);
        order.push(g);
      }
      last = g;
    }
    g.names.push(c.name);
  }
  return order;
}
