import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { localEmbedder } from "../src/defer/embed/local.js";
import { embeddingText, SemanticRanker } from "../src/defer/embed/semantic.js";
import { textKey, VectorStore } from "../src/defer/embed/vector-store.js";
import { Bm25fIndex, type Hit } from "../src/defer/search/bm25f.js";
import type { SearchEntry } from "../src/defer/search/entry.js";
import { emit, type Figure, median, peakRssMiB, percentile, progress, round } from "./lib.js";
import { type BfclFunction, findDataDir, loadRetrievalSet, paramText } from "./search-data.js";
import { auroc, quality } from "./search-metrics.js";
import { makeTool } from "./tool-set.js";

// Semantic tool search (issue 29) on the development split of data/README.md: the lexical
// ranking and the hybrid one (lexical top 100 reranked by 0.3 lexical + 0.7 cosine of
// all-MiniLM-L6-v2 vectors, run locally) in the same run; the time to embed the catalog cold (an
// empty vector cache) and warm (a second ranker reading the cache), and the query latency.
const set = loadRetrievalSet(findDataDir());
const entries: SearchEntry[] = set.catalog.map((fn: BfclFunction) => ({
  name: fn.name,
  description: fn.description,
  params: paramText(fn),
}));
const index = new Bm25fIndex();
index.sync(entries);

const cache = mkdtempSync(path.join(os.tmpdir(), "tp-bench-vectors-"));
const env = { ...process.env, TOOLPLANE_CACHE_DIR: cache };

async function main(): Promise<void> {
  const cold = new SemanticRanker(localEmbedder(), env);
  let t = performance.now();
  cold.prepare(entries);
  await cold.settled();
  const coldMs = performance.now() - t;
  if (cold.lastFailure) throw new Error(cold.lastFailure);
  await cold.close();

  const ranker = new SemanticRanker(localEmbedder(), env);
  t = performance.now();
  ranker.prepare(entries);
  await ranker.settled();
  const warmMs = performance.now() - t;

  // warm at 10,000 tools, measured rather than scaled: their vectors (made up: the cost read is
  // the cache's, not the model's) written to the disk cache first, then new rankers read them
  const many: SearchEntry[] = Array.from({ length: 10_000 }, (_, i) => {
    const t = makeTool(i);
    return { name: t.name, description: t.description };
  });
  const seeded = new VectorStore(ranker.embedder.id, env);
  await seeded.load();
  await seeded.add(
    many.map((e, i) => {
      const v = new Float32Array(384).map((_, d) => Math.sin(i * 7 + d));
      return [textKey(embeddingText(e)), v] as const;
    }),
  );
  const warmMany: number[] = [];
  for (let r = 0; r < 5; r++) {
    const again = new SemanticRanker(
      {
        id: ranker.embedder.id,
        embed: async () => Promise.reject(new Error("not cached")),
        close: async () => {},
      },
      env,
    );
    const t1 = performance.now();
    again.prepare(many);
    await again.settled();
    warmMany.push(performance.now() - t1);
    if (again.lastFailure) throw new Error(`10,000 warm: ${again.lastFailure}`);
  }

  const evaluate = async (rank: (q: string) => Promise<Hit[]>) => {
    const ranks: number[] = [];
    const fits: number[] = [];
    const none: number[] = [];
    for (const [i, q] of set.queries.entries()) {
      if (i % 50 === 0) progress(`semantic: query ${i}/${set.queries.length}`);
      const hits = await rank(q.text);
      if (q.relevant !== undefined) {
        const at = hits.findIndex((h) => h.name === q.relevant);
        ranks.push(at < 0 ? Number.POSITIVE_INFINITY : at + 1);
      }
      const top = hits[0]?.score ?? 0;
      if (q.split === "simple_python") fits.push(top);
      if (q.split === "irrelevance") none.push(top);
    }
    return { ...quality(ranks), auroc: auroc(fits, none) };
  };
  const lexical = await evaluate(async (q) => index.search(q, 10));
  const times: number[] = [];
  let fallbacks = 0;
  const hybrid = await evaluate(async (q) => {
    const t0 = performance.now();
    const { hits, ranking } = await ranker.rerank(q, index.search(q, 100), 10);
    times.push(performance.now() - t0);
    if (ranking.kind !== "hybrid") fallbacks++;
    return hits;
  });
  await ranker.close();

  // the no-fit AUROC's goal is the lexical figure of this run ("no worse than lexical")
  const goals: Record<string, number | undefined> = { r1: 0.78, r5: 0.95, auroc: lexical.auroc };
  const figures: Figure[] = [];
  for (const key of ["r1", "r5", "r10", "ndcg10", "auroc"] as const) {
    const goal = goals[key];
    const digits = key === "auroc" ? 4 : 3;
    figures.push({
      name: `${key} hybrid (local all-MiniLM-L6-v2)`,
      value: round(hybrid[key], digits),
      unit: "",
      ...(goal !== undefined ? { goal: `>= ${round(goal, digits)}`, ok: hybrid[key] >= goal } : {}),
    });
    figures.push({ name: `${key} lexical`, value: round(lexical[key], digits), unit: "", note: "same run" });
  }
  figures.push(
    {
      name: "searches that fell back to lexical",
      value: fallbacks,
      unit: "",
      note: `of ${set.queries.length}`,
    },
    {
      name: "hybrid query latency p50 (query embedded, 100 reranked)",
      value: round(percentile(times, 50), 1),
      unit: "ms",
    },
    { name: "hybrid query latency p99", value: round(percentile(times, 99), 1), unit: "ms" },
    {
      name: `embed the catalog cold (${entries.length} tools, empty cache)`,
      value: round(coldMs / 1000, 1),
      unit: "s",
      note: `${round(coldMs / entries.length, 1)} ms a tool; 10,000 tools at that rate: ${round((coldMs / entries.length) * 10, 0)} s`,
    },
    {
      name: `embed the catalog warm (${entries.length} tools, from the disk cache)`,
      value: round(warmMs, 1),
      unit: "ms",
    },
    {
      name: "embed 10,000 tools warm (all in the disk cache), median of 5",
      value: round(median(warmMany), 1),
      unit: "ms",
      note: "the file read and each text hashed; cold at 10,000 is the per-tool rate above times 10,000",
    },
    { name: "peak RSS", value: round(peakRssMiB(), 1), unit: "MiB" },
  );
  emit({ bench: "semantic", figures });
}

main()
  .catch((error) => {
    process.stderr.write(`semantic: ${(error as Error).message}\n`);
    process.exitCode = 1;
  })
  .finally(() => rmSync(cache, { recursive: true, force: true }));
