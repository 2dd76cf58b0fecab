import type { Command } from "commander";
import { type ChatEndpoint, evalSelection, type SelectionReport } from "../../eval/index.js";
import { progress } from "../../util/progress.js";
import { verdicts } from "../color.js";
import { type CommonOptions, printJson, UsageError } from "../common.js";
import { openToolplane } from "../open.js";

interface SelectionOptions extends CommonOptions {
  endpoint?: string;
  model?: string;
}

/** Where the endpoint's key comes from, first set wins. */
export const API_KEY_VARIABLES = ["TOOLPLANE_EVAL_API_KEY", "OPENAI_API_KEY"] as const;

/** `toolplane eval`: its options and help are in commands/eval.ts, loaded without this module. */
export const action = async (_opts: SelectionOptions, self: Command) => {
  const opts = self.optsWithGlobals() as SelectionOptions;
  if ((opts.endpoint === undefined) !== (opts.model === undefined)) {
    throw new UsageError("--endpoint and --model go together: give both to ask a model, or neither");
  }
  let endpoint: ChatEndpoint | undefined;
  if (opts.endpoint !== undefined && opts.model !== undefined) {
    endpoint = { url: opts.endpoint, model: opts.model };
    const key = API_KEY_VARIABLES.map((v) => process.env[v]).find((v) => v !== undefined && v !== "");
    if (key) endpoint.apiKey = key;
  }
  const plane = await openToolplane(opts);
  const bar = progress("selection cases");
  try {
    const report = await evalSelection(plane, {
      ...(endpoint ? { endpoint } : {}),
      onCase: (done, total) => bar.update(done, total),
    });
    bar.done();
    if (opts.json) printJson(report);
    else process.stdout.write(formatReport(report));
    if (!report.ok) process.exitCode = 1;
  } finally {
    bar.done();
    await plane.close();
  }
};

function formatReport(report: SelectionReport): string {
  const out: string[] = [];
  const paint = verdicts();
  const mark = (ok: boolean) => (ok ? paint.pass("ok  ") : paint.fail("FAIL"));
  for (const t of report.tools) {
    out.push(`${mark(t.ok)} ${t.tool}${t.malformed ? `: its cases cannot run: ${t.malformed}` : ""}`);
    for (const c of t.search.cases) {
      const where = c.rank === null ? "not found" : `rank ${c.rank}, score ${c.score.toFixed(2)}`;
      out.push(`  ${mark(c.ok)} search   ${c.expect.padEnd(10)} ${where}: ${c.task}`);
    }
    for (const c of t.endpoint?.cases ?? []) {
      const called = c.called.length === 0 ? "no tool" : c.called.join(", ");
      out.push(`  ${mark(c.ok)} model    ${c.expect.padEnd(10)} called ${called}: ${c.task}`);
    }
  }
  if (report.tools.length === 0) out.push("no visible tool declares selection cases");
  if (report.untested.length > 0) out.push(`no selection cases: ${report.untested.join(", ")}`);
  for (const p of report.problems) {
    const what = p.entry ? `${p.provider} (${p.entry})` : p.provider;
    out.push(`${mark(false)} ${what} could not be read, so its tools' cases did not run: ${p.reason}`);
  }
  const { cases, failed } = report.summary;
  out.push(`${cases - failed}/${cases} cases passed${report.model ? ` (model ${report.model})` : ""}`);
  return `${out.join("\n")}\n`;
}
