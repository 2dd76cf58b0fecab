import { readFileSync } from "node:fs";
import path from "node:path";
import type { Toolplane } from "../../assemble/index.js";
import type { EmbedderConfig } from "../../defer/embed/embedder.js";
import { rankerFor } from "../../defer/embed/factory.js";
import { rankQuery, type SemanticRanker } from "../../defer/embed/semantic.js";
import { Bm25fIndex } from "../../defer/search/bm25f.js";
import type { SearchEntry } from "../../defer/search/entry.js";
import { entryFromJson, entryFromTool } from "../../defer/search/from-tool.js";
import { NO_FIT_THRESHOLD } from "../../defer/selection.js";
import { type CommonOptions, printJson, printJsonLine, say, UsageError } from "../common.js";
import { openToolplane } from "../open.js";

interface SearchOptions extends CommonOptions {
  limit: string;
  tools?: string;
  queries?: string;
}

/** `toolplane search`: its options and help are in commands/search.ts, loaded without this module. */
export const action = async (query: string | undefined, opts: SearchOptions) => {
  const limit = parseLimit(opts.limit);
  if (opts.queries !== undefined && query !== undefined) {
    throw new UsageError("give either a QUERY or --queries FILE, not both");
  }
  if (opts.queries !== undefined && opts.tools === undefined) {
    throw new UsageError("batch mode needs --tools FILE as well as --queries FILE");
  }
  if (opts.queries === undefined && (query === undefined || query.trim() === "")) {
    throw new UsageError("give a QUERY to search for (or --tools FILE --queries FILE for a batch)");
  }
  const plane = await openToolplane(opts);
  let ranker: SemanticRanker | undefined;
  try {
    const entries = opts.tools !== undefined ? readToolsFile(opts.tools) : await catalogEntries(plane);
    const index = new Bm25fIndex();
    index.sync(entries);
    ranker = rankerFor(plane.config.get("search.embedder") as EmbedderConfig);
    if (ranker !== undefined) {
      // one process, one answer: the CLI waits for the tools' vectors (from the disk cache when
      // it has them); a host's tool_search never does
      say(`embedding ${entries.length} tools with ${ranker.embedder.id} (cached ones are read from disk)`);
      ranker.prepare(entries);
      await ranker.settled();
    }
    const search = (q: string) => rank(index, ranker, q, limit);
    if (opts.queries !== undefined) {
      for (const { id, query: q } of readQueriesFile(opts.queries))
        printJsonLine({ id, ...(await search(q)) });
      return;
    }
    const answer = await search(query!);
    if (opts.json) printJson({ query, ...answer });
    else process.stdout.write(formatResults(answer));
  } finally {
    await ranker?.close();
    await plane.close();
  }
};

/**
 * Results in rank order. `relevance` is what they are sorted by (BM25F, reranked by how much of
 * each tool the query covers); `score` is the 0-1 fit that says whether anything fits at all
 * (over NO_FIT_THRESHOLD), and need not fall monotonically down the list.
 */
async function rank(index: Bm25fIndex, ranker: SemanticRanker | undefined, query: string, limit: number) {
  const round = (x: number) => Math.round(x * 10_000) / 10_000;
  const { hits, ranking } = await rankQuery(index, ranker, query, limit);
  return {
    results: hits.map((h) => ({ name: h.name, score: round(h.score), relevance: round(h.raw) })),
    ...(ranking ? { ranking } : {}),
  };
}

function formatResults({ results, ranking }: Awaited<ReturnType<typeof rank>>): string {
  const how =
    ranking === undefined
      ? ""
      : ranking.kind === "hybrid"
        ? "ranking: hybrid (lexical top 100 reranked by the embedder)\n"
        : `ranking: lexical (${ranking.reason})\n`;
  if (results.length === 0) return `${how}no tool matches\n`;
  const rel = results.map((r) => r.relevance.toFixed(4));
  const width = Math.max("relevance".length, ...rel.map((r) => r.length));
  const lines = [
    `${"relevance".padStart(width)}  fit     tool   (sorted by relevance; fit over ${NO_FIT_THRESHOLD} means it fits)`,
  ];
  for (const [i, r] of results.entries())
    lines.push(`${rel[i]!.padStart(width)}  ${r.score.toFixed(4)}  ${r.name}`);
  return `${how}${lines.join("\n")}\n`;
}

function parseLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--limit must be a whole number of at least 1, got "${value}"`);
  return n;
}

async function catalogEntries(plane: Toolplane): Promise<SearchEntry[]> {
  const snapshot = await plane.toolSnapshot();
  const disabled = new Set(plane.config.get("tools.disabled") as string[]);
  return snapshot.entries
    .filter((e) => !disabled.has(e.name))
    .map((e) => entryFromTool(e.entry, e.namespace));
}

function readText(file: string, flag: string): string {
  try {
    return readFileSync(path.resolve(file), "utf8");
  } catch (err) {
    throw new UsageError(
      `cannot read ${flag} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

/** `--tools FILE`: a JSON array of {name, description, parameters}. */
export function readToolsFile(file: string): SearchEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(readText(file, "--tools"));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(
      `--tools ${file} is not valid JSON (${(err as Error).message}): it must be an array of {name, description, parameters}`,
    );
  }
  if (!Array.isArray(data))
    throw new UsageError(`--tools ${file} must hold a JSON array of {name, description, parameters}`);
  const seen = new Set<string>();
  return data.map((t, i) => {
    if (t === null || typeof t !== "object" || typeof (t as { name?: unknown }).name !== "string") {
      throw new UsageError(`--tools ${file}: entry ${i} has no string "name"`);
    }
    const tool = t as { name: string; description?: unknown; parameters?: unknown };
    if (tool.description !== undefined && typeof tool.description !== "string") {
      throw new UsageError(`--tools ${file}: entry ${i} (${tool.name}) has a non-string "description"`);
    }
    if (seen.has(tool.name))
      throw new UsageError(`--tools ${file}: the name "${tool.name}" appears twice (entry ${i})`);
    seen.add(tool.name);
    return entryFromJson(tool as { name: string; description?: string; parameters?: unknown });
  });
}

/** `--queries FILE`: JSON Lines of {id, query}; blank lines are skipped. */
export function readQueriesFile(file: string): { id: unknown; query: string }[] {
  const out: { id: unknown; query: string }[] = [];
  readText(file, "--queries")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return;
      let row: unknown;
      try {
        row = JSON.parse(line);
      } catch {
        throw new UsageError(
          `--queries ${file} line ${i + 1} is not JSON: each line must be {"id": ..., "query": "..."}`,
        );
      }
      const r = row as { id?: unknown; query?: unknown };
      if (r === null || typeof r !== "object" || r.id === undefined || typeof r.query !== "string") {
        throw new UsageError(`--queries ${file} line ${i + 1} needs an "id" and a string "query"`);
      }
      out.push({ id: r.id, query: r.query });
    });
  return out;
}
