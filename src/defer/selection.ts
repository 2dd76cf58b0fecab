import type { AnyTool } from "../declare/types.js";
import { Bm25fIndex } from "./search/bm25f.js";
import type { SearchEntry } from "./search/entry.js";
import { entryFromTool } from "./search/from-tool.js";

/**
 * Normalised score under which a top hit means "nothing here fits". Scores are on one scale for
 * any catalog (see Bm25fIndex.search), so one figure serves all; `npm run bench -- search`
 * reports how it separates fitting from non-fitting queries. 0.40 is the balanced-accuracy
 * optimum on the BFCL development pool (simple_python against irrelevance: 85% of fitting
 * queries over it, 27% of irrelevance queries).
 */
export const NO_FIT_THRESHOLD = 0.4;

export interface SelectionCaseResult {
  task: string;
  expect: "select" | "not-select";
  /** 1-based rank of the tool for the task, or null when it was not retrieved at all. */
  rank: number | null;
  score: number;
  ok: boolean;
}

export interface SelectionCheck {
  tool: string;
  ok: boolean;
  cases: SelectionCaseResult[];
}

/**
 * Runs a tool's declared selection cases through tool search over `catalog` (other tools'
 * entries) plus the tool itself: a should-select task must find it in the top `k`; a
 * should-not-select task must not rank it first with a confident score (at or over the threshold).
 */
export function selectionCheck(
  tool: AnyTool,
  catalog: readonly SearchEntry[],
  opts: { k?: number; threshold?: number } = {},
): SelectionCheck {
  const k = opts.k ?? 5;
  const threshold = opts.threshold ?? NO_FIT_THRESHOLD;
  const index = new Bm25fIndex();
  index.sync([...catalog.filter((e) => e.name !== tool.name), entryFromTool(tool)]);
  const cases: SelectionCaseResult[] = [];
  const run = (task: string, expect: "select" | "not-select") => {
    const hits = index.search(task, Math.max(k, 10));
    const at = hits.findIndex((h) => h.name === tool.name);
    const rank = at < 0 ? null : at + 1;
    const score = at < 0 ? 0 : hits[at]!.score;
    const ok = expect === "select" ? rank !== null && rank <= k : !(rank === 1 && score >= threshold);
    cases.push({ task, expect, rank, score, ok });
  };
  for (const c of tool.host.selection?.shouldSelect ?? []) run(c.task, "select");
  for (const c of tool.host.selection?.shouldNotSelect ?? []) run(c.task, "not-select");
  return { tool: tool.name, ok: cases.every((c) => c.ok), cases };
}
