import { countTokens } from "../render/tokens.js";
import type { EmbedderConfig } from "./embed/embedder.js";
import { type Ranking, rankQuery, type SemanticRanker } from "./embed/semantic.js";
import {
  type DeferConfig,
  type DeferPlan,
  type DeferState,
  EMPTY_DEFER_STATE,
  estimateBytes,
  estimateText,
  type PlanEntry,
  planDeferral,
} from "./plan.js";
import { Bm25fIndex, type Hit, type SyncReport } from "./search/bm25f.js";
import type { SearchEntry } from "./search/entry.js";

export const DEFAULT_SEARCH_LIMIT = 5;

/** What a session plans from: a search entry, plus the tool's deferral mark when it has one. */
export type SessionEntry = SearchEntry & Pick<PlanEntry, "mark" | "markedBy">;

export interface SearchRequest {
  query?: string;
  /** Regex mode: a JavaScript regular expression, matched case-insensitively. */
  pattern?: string;
  limit?: number;
  /**
   * false: rank only, the loaded set stays as it is. The provider loads what a client-run search
   * names in the native form (`defer.nativeSearch: "toolplane"`), and a load here would move the
   * tools out of the deferred tail and change the request. Default true.
   */
  load?: boolean;
}

export interface SearchOutcome {
  hits: Hit[];
  /** Names that joined the session's loaded set by this search (already-loaded ones excluded). */
  loaded: string[];
  /** How a query was ranked when `search.embedder` is on (a pattern, or off: not set). */
  ranking?: Ranking;
}

/** Makes the ranker for an embedder configuration (embed/factory.ts); undefined for "off". */
export type RankerFactory = (config: EmbedderConfig) => SemanticRanker | undefined;

/**
 * One session's deferral: the state carried between renders (so nothing flips without a change),
 * the loaded set (tools tool_search found, kept for following turns), and the search index,
 * updated incrementally from the light entries the last render passed in.
 */
export class DeferSession {
  private readonly bm25f = new Bm25fIndex();
  private state: DeferState = EMPTY_DEFER_STATE;
  private last: DeferPlan | undefined;
  /** Entries of the last plan not yet indexed: most renders are never searched, so indexing waits. */
  private pending: readonly SearchEntry[] | undefined;
  lastSync: SyncReport = { added: [], changed: [], removed: [] };
  private readonly tokenCounts = new WeakMap<SearchEntry, number>();
  private readonly loadListeners = new Set<(names: readonly string[]) => void>();
  /** Semantic reranking (`search.embedder`), with the configuration it was made for. */
  private ranker: { config: string; ranker: SemanticRanker | undefined } | undefined;
  private lastEntries: readonly SearchEntry[] = [];
  /** The last plan's deferred names as a set, made once per plan: every search and load reads it. */
  private deferredSet: { plan: DeferPlan; names: ReadonlySet<string> } | undefined;

  /** Called with the names each time tools join the loaded set; returns the unsubscribe. */
  onLoad(listener: (names: readonly string[]) => void): () => void {
    this.loadListeners.add(listener);
    return () => this.loadListeners.delete(listener);
  }

  /** Plans this render. Entries are light (name + search text); no schema is built. */
  plan(entries: readonly SessionEntry[], config: DeferConfig): DeferPlan {
    this.pending = entries;
    // sizes matter only with a byte or token figure; without one, skip measuring every entry
    const bytes = (config.maxSchemaBytes ?? null) !== null;
    const tokens = (config.thresholdTokens ?? null) !== null;
    const plan = planDeferral(
      bytes || tokens
        ? entries.map((e) => ({
            name: e.name,
            ...(e.mark !== undefined ? { mark: e.mark } : {}),
            ...(e.markedBy !== undefined ? { markedBy: e.markedBy } : {}),
            ...(bytes ? { bytes: estimateBytes(e) } : {}),
            ...(tokens ? { tokens: this.tokensOf(e) } : {}),
          }))
        : entries,
      config,
      this.state,
    );
    this.state = plan.state;
    this.last = plan;
    this.lastEntries = entries;
    this.prepareVectors();
    return plan;
  }

  /**
   * Uses the embedder this configuration names (made by `make` when it differs from the last
   * one; the old ranker is closed). Its tools' vectors start at once, in the background.
   */
  embedWith(config: EmbedderConfig, make: RankerFactory): void {
    const key = JSON.stringify(config);
    if (this.ranker?.config === key) return;
    void this.ranker?.ranker?.close();
    this.ranker = { config: key, ranker: make(config) };
    this.prepareVectors();
  }

  /** The deferred tools' texts go to the ranker, which embeds those it has no vector for. */
  private prepareVectors(): void {
    const ranker = this.ranker?.ranker;
    if (ranker === undefined || this.last === undefined) return;
    const deferred = this.deferredNames();
    ranker.prepare(this.lastEntries.filter((e) => deferred.has(e.name)));
  }

  /** The last plan's deferred names (none before a plan), as a set built once per plan. */
  private deferredNames(): ReadonlySet<string> {
    const plan = this.last;
    if (plan === undefined) return NO_NAMES;
    if (this.deferredSet?.plan !== plan) this.deferredSet = { plan, names: new Set(plan.deferred) };
    return this.deferredSet.names;
  }

  /** The ranker in use, if `search.embedder` is on. */
  get semantic(): SemanticRanker | undefined {
    return this.ranker?.ranker;
  }

  async close(): Promise<void> {
    const ranker = this.ranker?.ranker;
    this.ranker = undefined;
    await ranker?.close();
  }

  /**
   * Entries that changed in place (same names and marks, no size figure) without a new plan:
   * the plan they give is the last one, and the search index reads them on its next sync.
   */
  refresh(entries: readonly SessionEntry[]): void {
    this.pending = entries;
    this.lastEntries = entries;
    this.prepareVectors();
  }

  /** o200k tokens of an entry's text, counted once per entry object (entries are reused while a tool is unchanged). */
  private tokensOf(entry: SearchEntry): number {
    let n = this.tokenCounts.get(entry);
    if (n === undefined) {
      n = countTokens(estimateText(entry));
      this.tokenCounts.set(entry, n);
    }
    return n;
  }

  /** The search index, brought up to the last plan's entries (re-indexing only what changed). */
  get index(): Bm25fIndex {
    if (this.pending !== undefined) {
      this.lastSync = this.bm25f.sync(this.pending);
      this.pending = undefined;
    }
    return this.bm25f;
  }

  get current(): DeferPlan | undefined {
    return this.last;
  }

  /** Ranks the currently deferred tools; found tools join the loaded set for following renders. */
  search(req: SearchRequest): SearchOutcome {
    const limit = req.limit ?? DEFAULT_SEARCH_LIMIT;
    const deferred = this.deferredNames();
    const isDeferred = (name: string) => deferred.has(name);
    let hits: Hit[];
    if (req.pattern !== undefined)
      hits = this.index.searchRegex(compilePattern(req.pattern), limit, isDeferred);
    else if (req.query !== undefined) hits = this.index.search(req.query, limit, isDeferred);
    else throw new TypeError("tool_search needs a query or a pattern");
    return { hits, loaded: req.load === false ? [] : this.load(hits.map((h) => h.name)) };
  }

  /**
   * search(), with a query reranked by the embedder when `search.embedder` is on: the lexical top
   * RERANK_DEPTH reordered by the blend (semantic.ts). It never waits for the tools' vectors: until
   * they are ready, or when the embedder fails, the answer is lexical and `ranking` says why.
   */
  async searchRanked(req: SearchRequest): Promise<SearchOutcome> {
    const ranker = this.ranker?.ranker;
    if (ranker === undefined || req.query === undefined || req.pattern !== undefined) return this.search(req);
    const deferred = this.deferredNames();
    const { hits, ranking } = await rankQuery(
      this.index,
      ranker,
      req.query,
      req.limit ?? DEFAULT_SEARCH_LIMIT,
      (n) => deferred.has(n),
    );
    const loaded = req.load === false ? [] : this.load(hits.map((h) => h.name));
    return { hits, loaded, ...(ranking ? { ranking } : {}) };
  }

  /** Adds deferred tools to the loaded set (in the given order); returns those newly added. */
  load(names: readonly string[]): string[] {
    const deferred = this.deferredNames();
    const already = new Set(this.state.loaded);
    // a name given twice is loaded once
    const added = [...new Set(names)].filter((n) => deferred.has(n) && !already.has(n));
    if (added.length > 0) {
      this.state = { ...this.state, loaded: [...this.state.loaded, ...added] };
      for (const listener of this.loadListeners) listener(added);
    }
    return added;
  }

  get loaded(): readonly string[] {
    return this.state.loaded;
  }
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** A model-written pattern: compiled case-insensitively, with a message that says how to fix it. */
export function compilePattern(pattern: string): RegExp {
  if (pattern.length > 200)
    throw new SyntaxError("pattern is longer than 200 characters: use a shorter regex");
  try {
    return new RegExp(pattern, "i");
  } catch (err) {
    throw new SyntaxError(
      `pattern is not a valid regular expression (${(err as Error).message}): fix it, or send a query instead`,
    );
  }
}
