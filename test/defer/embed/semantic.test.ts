import { describe, expect, it } from "vitest";
import { type Embedder, EmbedderError, unit } from "../../../src/defer/embed/embedder.js";
import {
  EMBED_TEXT_MAX,
  embeddingText,
  QUERY_TIMEOUT_MS,
  SemanticRanker,
} from "../../../src/defer/embed/semantic.js";
import { Bm25fIndex } from "../../../src/defer/search/bm25f.js";
import type { SearchEntry } from "../../../src/defer/search/entry.js";
import { NO_FIT_THRESHOLD } from "../../../src/defer/selection.js";
import { DeferSession } from "../../../src/defer/session.js";
import { tempDir } from "../../helpers/tmp.js";

/** Vectors by topic words: "weather"/"forecast" one axis, "money"/"currency" another. */
const AXES = [/weather|forecast|rain/gi, /money|currency|exchange/gi, /file|disk/gi];
function fakeEmbedder(opts: { fail?: boolean; gate?: Promise<void> } = {}) {
  const texts: string[] = [];
  const embedder: Embedder = {
    id: "fake:topics",
    async embed(input) {
      await opts.gate;
      if (opts.fail) throw new EmbedderError("the fake is down");
      texts.push(...input);
      return input.map((t) => unit(AXES.map((a) => (t.match(a)?.length ?? 0) + 0.01)));
    },
    async close() {},
  };
  return { embedder, texts };
}

const TOOLS: SearchEntry[] = [
  { name: "get_forecast", description: "Tells whether it will rain tomorrow and how warm it gets" },
  { name: "convert_currency", description: "Converts an amount of money between currencies" },
  { name: "weather_station_list", description: "Lists the stations of a network by id" },
  { name: "disk_usage", description: "Shows how full each disk is" },
];
const env = () => ({ TOOLPLANE_CACHE_DIR: tempDir("tp-vectors-") });

describe("the semantic ranker", () => {
  it("answers lexically until the tools' vectors are ready, then reranks by the blend", async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const { embedder } = fakeEmbedder({ gate });
    const ranker = new SemanticRanker(embedder, env());
    const index = new Bm25fIndex();
    index.sync(TOOLS);
    const query = "will it rain? weather please";
    const lexical = index.search(query, 100);
    ranker.prepare(TOOLS);
    const early = await ranker.rerank(query, lexical, 2);
    expect(early.ranking).toMatchObject({ kind: "lexical", vectors: { ready: 0 } });
    expect(early.ranking.reason).toMatch(/not ready yet \(0 of \d+ candidates embedded\)/);
    expect(early.hits).toEqual(lexical.slice(0, 2));
    open();
    await ranker.settled();
    const late = await ranker.rerank(query, lexical, 2);
    expect(late.ranking).toEqual({
      kind: "hybrid",
      vectors: { ready: lexical.length, total: lexical.length },
    });
    // the words match weather_station_list's name best; the meaning is the forecast
    expect(lexical[0]!.name).toBe("weather_station_list");
    expect(late.hits[0]!.name).toBe("get_forecast");
    // the fit stays the lexical one
    expect(late.hits[0]!.score).toBe(lexical.find((h) => h.name === "get_forecast")!.score);
  });

  it("keeps the fit's verdict: when the lexical best fits, a tool that does not fit stays behind those that do", async () => {
    const tools: SearchEntry[] = [
      // the words fit; the fake's vector is pulled toward money and files by the rest
      {
        name: "weather_forecast",
        description: "Weather forecast, sold for money in any currency, on file on disk",
      },
      // one word in common (a weak fit); the fake's vector is all weather
      { name: "rain_gauge", description: "Rain readings for tomorrow" },
    ];
    const { embedder } = fakeEmbedder();
    const ranker = new SemanticRanker(embedder, env());
    ranker.prepare(tools);
    await ranker.settled();
    const index = new Bm25fIndex();
    index.sync(tools);
    const query = "weather forecast for tomorrow";
    const lexical = index.search(query, 100);
    expect(lexical.map((h) => h.name)).toEqual(["weather_forecast", "rain_gauge"]);
    expect(lexical[0]!.score).toBeGreaterThanOrEqual(NO_FIT_THRESHOLD);
    expect(lexical[1]!.score).toBeLessThan(NO_FIT_THRESHOLD);
    const { hits, ranking } = await ranker.rerank(query, lexical, 2);
    expect(ranking.kind).toBe("hybrid");
    // the blend alone would put rain_gauge first (cosine 1 against less), and the model would read
    // "none of these fits" where the lexical answer fitted
    expect(hits.map((h) => h.name)).toEqual(["weather_forecast", "rain_gauge"]);
  });

  it("embeds at most EMBED_TEXT_MAX characters of a query, however long the model writes it", async () => {
    const { embedder, texts } = fakeEmbedder();
    const ranker = new SemanticRanker(embedder, env());
    ranker.prepare(TOOLS);
    await ranker.settled();
    const index = new Bm25fIndex();
    index.sync(TOOLS);
    const query = `rain weather ${"x".repeat(100_000)}`;
    const { ranking } = await ranker.rerank(query, index.search(query, 100), 2);
    expect(ranking.kind).toBe("hybrid");
    expect(texts.at(-1)).toBe(query.slice(0, EMBED_TEXT_MAX));
  });

  it("an embedder that fails gives a lexical answer that says so", async () => {
    const ranker = new SemanticRanker(fakeEmbedder({ fail: true }).embedder, env());
    ranker.prepare(TOOLS);
    await ranker.settled();
    const index = new Bm25fIndex();
    index.sync(TOOLS);
    const { ranking } = await ranker.rerank("money", index.search("money", 100), 3);
    expect(ranking.kind).toBe("lexical");
    expect(ranking.reason).toMatch(/the embedder failed: the fake is down/);
    expect(ranker.lastFailure).toBe("the fake is down");
  });

  it("a query whose vector does not come within QUERY_TIMEOUT_MS is answered lexically", async () => {
    const { embedder } = fakeEmbedder();
    const stuck: Embedder = {
      ...embedder,
      embed: (texts, signal) =>
        texts.length === 1 && texts[0] === "rain" ? new Promise(() => {}) : embedder.embed(texts, signal),
    };
    const ranker = new SemanticRanker(stuck, env());
    ranker.prepare(TOOLS);
    await ranker.settled();
    const index = new Bm25fIndex();
    index.sync(TOOLS);
    const t0 = Date.now();
    const { ranking } = await ranker.rerank("rain", index.search("rain", 100), 3);
    expect(Date.now() - t0).toBeLessThan(QUERY_TIMEOUT_MS + 2000);
    expect(ranking.reason).toMatch(/the query could not be embedded: no answer within/);
  }, 15_000);

  it("a second ranker reads the vectors from disk and embeds only the texts that changed", async () => {
    const e = env();
    const first = fakeEmbedder();
    const a = new SemanticRanker(first.embedder, e);
    a.prepare(TOOLS);
    await a.settled();
    expect(first.texts.sort()).toEqual(TOOLS.map(embeddingText).sort());
    const second = fakeEmbedder();
    const b = new SemanticRanker(second.embedder, e);
    const changed = { ...TOOLS[3]!, description: "Shows how full each disk is, in bytes" };
    b.prepare([...TOOLS.slice(0, 3), changed]);
    await b.settled();
    expect(second.texts).toEqual([embeddingText(changed)]);
    const index = new Bm25fIndex();
    index.sync(TOOLS);
    expect((await b.rerank("rain", index.search("rain", 100), 1)).ranking.kind).toBe("hybrid");
  });

  it("without an embedder a session's search is the lexical one, byte for byte", async () => {
    const session = new DeferSession();
    session.plan(
      TOOLS.map((t) => ({ ...t, mark: "always" as const })),
      { mode: "threshold", threshold: 40, maxSchemaBytes: null, thresholdTokens: null, resident: [] },
    );
    const plain = new DeferSession();
    plain.plan(
      TOOLS.map((t) => ({ ...t, mark: "always" as const })),
      { mode: "threshold", threshold: 40, maxSchemaBytes: null, thresholdTokens: null, resident: [] },
    );
    session.embedWith("off", () => undefined);
    const ranked = await session.searchRanked({ query: "weather rain", limit: 3 });
    expect(ranked.ranking).toBeUndefined();
    expect(ranked).toEqual(plain.search({ query: "weather rain", limit: 3 }));
  });
});
