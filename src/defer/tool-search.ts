import { defineTool } from "../declare/define-tool.js";
import type { Tool } from "../declare/types.js";
import { TOOL_SEARCH_NAME } from "./plan.js";
import { NO_FIT_THRESHOLD } from "./selection.js";
import { DEFAULT_SEARCH_LIMIT, type DeferSession } from "./session.js";
import { toolSearchOutput, toolSearchParameters } from "./tool-search-schema.gen.js";
import type { ToolSearchArgs, ToolSearchResult } from "./tool-search-schema.js";

export type { ToolSearchResult } from "./tool-search-schema.js";

export const TOOL_SEARCH_DESCRIPTION =
  "Find deferred tools by what they do and load them. Deferred tools are listed by name only and " +
  "cannot be called until found here. Send a query (words) or a pattern (regular expression); " +
  "the best matches are loaded and can be called from the next turn on.";

/** What the model reads of toolplane's search where the provider loads the tools it names (no names are listed). */
export const TOOL_SEARCH_NATIVE_DESCRIPTION =
  "Find deferred tools by what they do and load them. Send a query (words) or a pattern (regular " +
  "expression); the best matches are loaded and can be called right after.";

/**
 * Renders a search result for the model: best match first, one line per tool. The number shown
 * is what the list is ordered by (relevance, relative to the best: 1.00 first, falling), so the
 * model never reads a list whose figures disagree with its order; the fit speaks once, for the
 * best match, when it is under NO_FIT_THRESHOLD.
 */
export function renderToolSearch(value: ToolSearchResult, options: { loads?: boolean } = {}): string {
  if (value.searched === 0) return "Nothing is deferred here: every tool is already in your tool list.";
  if (value.results.length === 0) return "No deferred tool matches. Try other words, or a pattern.";
  const best = value.results[0]!.relevance ?? value.results[0]!.score;
  const lines = value.results.map((r) => {
    const relative = best > 0 ? (r.relevance ?? r.score) / best : 0;
    return `- ${r.name} (${relative.toFixed(2)}): ${r.description}`;
  });
  const weak =
    value.mode === "query" && value.results[0]!.score < NO_FIT_THRESHOLD
      ? "\nNone of these fits the query well: if none does the job, try other words."
      : "";
  // ranking only (the native form): the provider loads every tool the result names, at once
  if (options.loads === false)
    return `Matching tools, best first (loaded: call them now):\n${lines.join("\n")}${weak}`;
  const loaded = value.loaded.length > 0 ? `\nLoaded now: ${value.loaded.join(", ")}.` : "";
  return `Matching tools, best first (callable from the next turn):\n${lines.join("\n")}${weak}${loaded}`;
}

/**
 * The tool_search tool for one session. Its canonical value is the ranked list; the tools found
 * join the session's loaded set, so the next render makes them resident at the end of the list.
 * `loads: false`: the provider's client-run search in the native form (`defer.nativeSearch:
 * "toolplane"`), where the provider loads what the result names: it ranks and loads nothing, and
 * its text says the tools are callable at once.
 */
export function toolSearchTool(
  session: DeferSession,
  describe: (name: string) => string,
  options: { loads?: boolean } = {},
): Tool<ToolSearchArgs, ToolSearchResult> {
  const loads = options.loads !== false;
  return defineTool({
    name: TOOL_SEARCH_NAME,
    description: loads ? TOOL_SEARCH_DESCRIPTION : TOOL_SEARCH_NATIVE_DESCRIPTION,
    parameters: toolSearchParameters,
    output: { schema: toolSearchOutput, render: (value) => renderToolSearch(value, { loads }) },
    execute: async (args): Promise<ToolSearchResult> => {
      if ((args.query === undefined) === (args.pattern === undefined)) {
        throw new Error("send exactly one of query (words) or pattern (a regular expression)");
      }
      const req = args.pattern !== undefined ? { pattern: args.pattern } : { query: args.query! };
      const { hits, loaded, ranking } = await session.searchRanked({
        ...req,
        limit: args.limit ?? DEFAULT_SEARCH_LIMIT,
        load: loads,
      });
      return {
        mode: args.pattern !== undefined ? "pattern" : "query",
        results: hits.map((h) => ({
          name: h.name,
          score: round(h.score),
          relevance: round(h.raw),
          description: describe(h.name),
        })),
        loaded,
        searched: session.current?.deferred.length ?? 0,
        ...(ranking ? { ranking } : {}),
      };
    },
    concurrencySafe: false,
    // it changes which tools the session lists, nothing outside it
    annotations: { title: "Tool search", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    display: { title: "Tool search", summarize: (a) => a.query ?? `/${a.pattern}/` },
    permission: { action: "tool_search" },
  });
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
