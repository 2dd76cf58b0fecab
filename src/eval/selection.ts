import { type ReportedProblem, reportProblems } from "../assemble/problems.js";
import type { Toolplane } from "../assemble/toolplane.js";
import { selectionProblem } from "../declare/define-tool.js";
import type { AnyTool } from "../declare/types.js";
import { entryFromTool } from "../defer/search/from-tool.js";
import { type SelectionCaseResult, selectionCheck } from "../defer/selection.js";
import { type ChatEndpoint, toolsChosen } from "./chat-endpoint.js";

export interface EndpointCaseResult {
  task: string;
  expect: "select" | "not-select";
  /** Every tool the model called for the task (toolplane names). */
  called: string[];
  ok: boolean;
}

export interface ToolSelectionReport {
  tool: string;
  ok: boolean;
  /** Why the tool's cases could not be run (an empty list, a case without a task): it fails. */
  malformed?: string;
  search: { ok: boolean; cases: SelectionCaseResult[] };
  endpoint?: { ok: boolean; cases: EndpointCaseResult[] };
}

export interface SelectionReport {
  ok: boolean;
  /** The endpoint's model, when one was asked. */
  model?: string;
  tools: ToolSelectionReport[];
  /** Visible tools that declare no selection cases (tested by nothing here). */
  untested: string[];
  /**
   * Providers whose tools could not be read (a module with a bad declaration, a server that did
   * not start): their tools' cases did not run, so the report fails.
   */
  problems: ReportedProblem[];
  summary: { cases: number; failed: number };
}

export interface SelectionEvalOptions {
  endpoint?: ChatEndpoint;
  /** Called before each endpoint request (progress for people). */
  onCase?: (done: number, total: number) => void;
}

/**
 * Runs every visible tool's `selection` cases (seed section 11): through tool search over the
 * scope's other tools, and, given an endpoint, against a model with the scope's `openai-chat`
 * catalog. A should-select task passes when the tool is chosen; a should-not-select task passes
 * when it is left alone. Tools are reported in catalog order, cases in declaration order.
 */
export async function evalSelection(
  plane: Toolplane,
  options: SelectionEvalOptions = {},
): Promise<SelectionReport> {
  const snapshot = await plane.toolSnapshot();
  const visible = new Set((await plane.visibleTools()).map((t) => t.name));
  const entries = snapshot.entries.filter((e) => visible.has(e.name));
  const index = entries.map((e) => entryFromTool(e.entry, e.namespace));
  const withCases = entries.map((e) => e.entry).filter(hasCases);
  const catalog = options.endpoint ? await plane.catalog("openai-chat") : undefined;
  const total = withCases.reduce((n, t) => n + casesOf(t).length, 0);
  let done = 0;
  const tools: ToolSelectionReport[] = [];
  for (const tool of withCases) {
    // defineTool refuses these; a tool made some other way is checked here with the same rule
    const problem = selectionProblem(tool.host.selection);
    if (problem !== undefined) {
      const malformed = `${problem.rule} ${problem.detail}`;
      tools.push({ tool: tool.name, ok: false, malformed, search: { ok: false, cases: [] } });
      continue;
    }
    const search = selectionCheck(tool, index);
    const report: ToolSelectionReport = {
      tool: tool.name,
      ok: search.ok,
      search: { ok: search.ok, cases: search.cases },
    };
    if (options.endpoint && catalog) {
      const cases: EndpointCaseResult[] = [];
      for (const c of casesOf(tool)) {
        options.onCase?.(done++, total);
        const called = await toolsChosen(options.endpoint, catalog, c.task);
        const chosen = called.includes(tool.name);
        cases.push({ task: c.task, expect: c.expect, called, ok: c.expect === "select" ? chosen : !chosen });
      }
      const ok = cases.every((c) => c.ok);
      report.endpoint = { ok, cases };
      report.ok = report.ok && ok;
    }
    tools.push(report);
  }
  const all = tools.flatMap((t) => [...t.search.cases, ...(t.endpoint?.cases ?? [])]);
  const problems = reportProblems(snapshot.problems);
  const result: SelectionReport = {
    ok: tools.every((t) => t.ok) && problems.length === 0,
    tools,
    untested: entries.map((e) => e.name).filter((n) => !withCases.some((t) => t.name === n)),
    problems,
    summary: { cases: all.length, failed: all.filter((c) => !c.ok).length },
  };
  if (options.endpoint) result.model = options.endpoint.model;
  return result;
}

function hasCases(tool: AnyTool): boolean {
  return tool.host.selection !== undefined;
}

function casesOf(tool: AnyTool): Array<{ task: string; expect: "select" | "not-select" }> {
  const s = tool.host.selection;
  return [
    ...(s?.shouldSelect ?? []).map((c) => ({ task: c.task, expect: "select" as const })),
    ...(s?.shouldNotSelect ?? []).map((c) => ({ task: c.task, expect: "not-select" as const })),
  ];
}
