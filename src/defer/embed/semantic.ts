import type { Bm25fIndex, Hit } from "../search/bm25f.js";
import type { SearchEntry } from "../search/entry.js";
import { NO_FIT_THRESHOLD } from "../selection.js";
import { cosine, type Embedder } from "./embedder.js";
import { textKey, VectorStore } from "./vector-store.js";

/** How many lexical hits the blend reorders; the rest keep their lexical order behind them. */
export const RERANK_DEPTH = 100;
/** The blend: this much of the lexical score, the rest the cosine (both min-max scaled over the candidates). */
export const LEXICAL_WEIGHT = 0.3;
/** Texts per embed call in the background: the local model took 115 ms a tool in calls of 32, 23 in calls of 256. */
const BATCH = 256;
/** The most a search waits for its query's vector before it answers lexically. */
export const QUERY_TIMEOUT_MS = 5_000;
/**
 * The most of a text that is embedded: a tool's (see embeddingText) and a query's, which the
 * model, or a client of the inspector, writes at any length (the model reads ~256 tokens of it).
 */
export const EMBED_TEXT_MAX = 2000;
/** After the embedder failed, the background waits this long before it tries again. */
const RETRY_MS = 30_000;

/** How a search was ranked, for its report. */
export interface Ranking {
  kind: "lexical" | "hybrid";
  /** Why it fell back to lexical. */
  reason?: string;
  /** Tools with a vector, of those searched. */
  vectors: { ready: number; total: number };
}

/**
 * What a tool's vector is made from: its name in words and its description. Measured on the
 * development pool (docs/defer.md): with the parameters' text too, R@1 fell from 0.767 to 0.757
 * and embedding took seven times as long (the texts are longer).
 */
export function embeddingText(entry: SearchEntry): string {
  const name = entry.name.replace(/[_.-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2");
  return `${name}: ${entry.description}`.slice(0, EMBED_TEXT_MAX);
}

/**
 * A query's hits, best first: the lexical ones, or with a ranker the lexical top RERANK_DEPTH
 * reordered by the blend. The one way tool_search, `toolplane search` and the inspector rank.
 */
export async function rankQuery(
  index: Bm25fIndex,
  ranker: SemanticRanker | undefined,
  query: string,
  limit: number,
  filter?: (name: string) => boolean,
): Promise<{ hits: Hit[]; ranking?: Ranking }> {
  if (ranker === undefined) return { hits: index.search(query, limit, filter) };
  return ranker.rerank(query, index.search(query, Math.max(limit, RERANK_DEPTH), filter), limit);
}

/**
 * Semantic reranking of the lexical hits. The tools' vectors are made in the background, from
 * the disk cache first (vector-store.ts), as the session's entries arrive (`prepare`); a search
 * never waits for them: until every candidate has its vector, or when the embedder fails, it
 * answers lexically and says why in its Ranking. The query's vector is the one embed on the
 * request path.
 */
export class SemanticRanker {
  private readonly store: VectorStore;
  private keys = new Map<string, string>();
  private readonly texts = new WeakMap<SearchEntry, { text: string; key: string }>();
  private queue = new Map<string, string>();
  private running: Promise<void> | undefined;
  private failure: { message: string; at: number } | undefined;
  private closed = false;

  constructor(
    readonly embedder: Embedder,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.store = new VectorStore(embedder.id, env);
  }

  /**
   * The searchable tools now: those without a vector are embedded in the background. An entry
   * object the session passed before (a tool unchanged) is not hashed again: every plan of 10,000
   * deferred tools passes them all.
   */
  prepare(entries: readonly SearchEntry[]): void {
    // the current tools only: names a server dropped, and texts it changed before they were
    // embedded, leave the maps, so a peer that renames its tools on every list grows nothing here
    const keys = new Map<string, string>();
    const queue = new Map<string, string>();
    for (const entry of entries) {
      let known = this.texts.get(entry);
      if (known === undefined) {
        const text = embeddingText(entry);
        known = { text, key: textKey(text) };
        this.texts.set(entry, known);
      }
      keys.set(entry.name, known.key);
      if (this.store.get(known.key) === undefined) queue.set(known.key, known.text);
    }
    this.keys = keys;
    this.queue = queue;
    this.resume();
  }

  /** Starts the background again, unless it failed less than RETRY_MS ago. */
  private resume(): void {
    if (this.failure !== undefined && Date.now() - this.failure.at < RETRY_MS) return;
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves once the background has nothing left to embed (or failed); for the CLI and tests. */
  async settled(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  /** The last background failure, if the embedder has not answered since. */
  get lastFailure(): string | undefined {
    return this.failure?.message;
  }

  private async drain(): Promise<void> {
    await this.store.load();
    while (!this.closed && this.queue.size > 0) {
      const batch = [...this.queue].filter(([key]) => this.store.get(key) === undefined).slice(0, BATCH);
      if (batch.length === 0) {
        this.queue.clear();
        break;
      }
      try {
        const vectors = await this.embedder.embed(batch.map(([, text]) => text));
        await this.store.add(batch.map(([key], i) => [key, vectors[i]!] as const));
        this.failure = undefined;
      } catch (error) {
        this.failure = { message: (error as Error).message, at: Date.now() };
        return;
      }
      for (const [key] of batch) this.queue.delete(key);
    }
  }

  private vectorOf(name: string): Float32Array | undefined {
    const key = this.keys.get(name);
    return key === undefined ? undefined : this.store.get(key);
  }

  /**
   * The lexical hits (best first, up to RERANK_DEPTH of them) reordered by the blend, cut to
   * `limit`. A hybrid hit's `raw` is its blended relevance; `score` stays the lexical fit, so
   * the no-fit signal is the lexical one.
   */
  async rerank(
    query: string,
    hits: readonly Hit[],
    limit: number,
  ): Promise<{ hits: Hit[]; ranking: Ranking }> {
    const candidates = hits.slice(0, RERANK_DEPTH);
    const ready = candidates.filter((h) => this.vectorOf(h.name) !== undefined).length;
    const vectors = { ready, total: candidates.length };
    const lexical = (reason: string) => ({
      hits: hits.slice(0, limit),
      ranking: { kind: "lexical" as const, reason, vectors },
    });
    if (candidates.length === 0) return { hits: [], ranking: { kind: "hybrid", vectors } };
    if (ready < candidates.length) {
      this.resume();
      const why = this.failure
        ? `the embedder failed: ${this.failure.message}`
        : "the tools' vectors are not ready yet";
      return lexical(`${why} (${ready} of ${candidates.length} candidates embedded)`);
    }
    let q: Float32Array;
    // the one embed on the request path: bounded for every embedder (the local worker has no
    // timeout of its own), so a stuck model costs a search QUERY_TIMEOUT_MS, never a hang
    const deadline = AbortSignal.timeout(QUERY_TIMEOUT_MS);
    try {
      [q] = (await Promise.race([
        this.embedder.embed([query.slice(0, EMBED_TEXT_MAX)], deadline),
        new Promise<never>((_, reject) =>
          deadline.addEventListener("abort", () =>
            reject(new Error(`no answer within ${QUERY_TIMEOUT_MS} ms`)),
          ),
        ),
      ])) as [Float32Array];
    } catch (error) {
      return lexical(`the query could not be embedded: ${(error as Error).message}`);
    }
    const cos = candidates.map((h) => cosine(q, this.vectorOf(h.name)!));
    const lex = scaled(candidates.map((h) => h.raw));
    const sem = scaled(cos);
    // The fit's verdict survives the reorder: when the lexical best hit fits, the hits that fit
    // stay ahead of those that do not, so a reorder never turns a fitting answer into "none of
    // these fits" (what the model reads under NO_FIT_THRESHOLD). Without this the no-fit AUROC
    // fell under the lexical one (0.848 against 0.849; with it 0.849, R@1 unchanged).
    const guard = candidates[0]!.score >= NO_FIT_THRESHOLD;
    const blended = candidates.map((h, i) => ({
      ...h,
      raw: LEXICAL_WEIGHT * lex[i]! + (1 - LEXICAL_WEIGHT) * sem[i]!,
      at: i,
      tier: guard && h.score < NO_FIT_THRESHOLD ? 1 : 0,
    }));
    // ties keep the lexical order, so the same inputs give the same order every time
    blended.sort((a, b) => a.tier - b.tier || b.raw - a.raw || a.at - b.at);
    const ranked = [...blended.map(({ at: _, tier: __, ...h }) => h), ...hits.slice(RERANK_DEPTH)];
    return { hits: ranked.slice(0, limit), ranking: { kind: "hybrid", vectors } };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.embedder.close();
  }
}

/** Min-max scaled to [0, 1]; all equal: all 1. */
function scaled(values: readonly number[]): number[] {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return values.map((v) => (max > min ? (v - min) / (max - min) : 1));
}
