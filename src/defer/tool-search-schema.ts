// The Zod declaration of tool_search's parameters and value: what types execute and what scripts/prebuilt.ts turns into
// the JSON Schema and the standalone validator in the .gen.ts beside it (the tool loads only those).
import { z } from "zod";
import { DEFAULT_SEARCH_LIMIT } from "./session.js";

export const toolSearchParameters = z.object({
  query: z.string().min(1).optional().describe("Words describing the job, e.g. 'ticket status lookup'"),
  pattern: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      "Instead of query: a regular expression matched against tool names, descriptions and parameters",
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(20)
    .optional()
    .describe(`How many tools to return (default ${DEFAULT_SEARCH_LIMIT})`),
});
export type ToolSearchArgs = z.output<typeof toolSearchParameters>;

export const toolSearchOutput = z.object({
  mode: z.enum(["query", "pattern"]),
  /** Best first, by `relevance` (BM25F, reranked by coverage): the order the model reads. */
  results: z.array(
    z.object({
      name: z.string(),
      /** The 0-1 fit: whether the tool fits the query at all (NO_FIT_THRESHOLD), not its rank. */
      score: z.number(),
      relevance: z.number().optional(),
      description: z.string(),
    }),
  ),
  /** Tools that became callable by this search. */
  loaded: z.array(z.string()),
  /** How many deferred tools were searched (0: nothing is deferred here). */
  searched: z.number().int().nonnegative().optional(),
  /**
   * How a query was ranked, present only when `search.embedder` is on: "hybrid" (reranked by the
   * embedder) or "lexical" with the reason (the tools' vectors not ready yet, the embedder down).
   */
  ranking: z
    .object({
      kind: z.enum(["lexical", "hybrid"]),
      reason: z.string().optional(),
      vectors: z.object({ ready: z.number().int().nonnegative(), total: z.number().int().nonnegative() }),
    })
    .optional(),
});

export type ToolSearchResult = z.infer<typeof toolSearchOutput>;
