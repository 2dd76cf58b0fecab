import { findLeaks, publishedHostKeys } from "../declare/leak.js";
import type { AnyTool } from "../declare/types.js";
import { formatIssues } from "../declare/validate.js";
import { PROVIDERS } from "../render/types.js";
import { type DoctorCheck, type DoctorContext, row } from "./types.js";

/** Row 1: every selection case's args fit the input schema; every expected output fits the output schema. */
export function schemaCheck(tools: readonly AnyTool[]): DoctorCheck {
  const findings: string[] = [];
  let cases = 0;
  for (const tool of tools) {
    const selection = tool.host.selection;
    if (!selection) continue;
    const all = [
      ...selection.shouldSelect.map((c, i) => ({ c, where: `selection.shouldSelect[${i}]` })),
      ...selection.shouldNotSelect.map((c, i) => ({ c, where: `selection.shouldNotSelect[${i}]` })),
    ];
    for (const { c, where } of all) {
      if (c.args !== undefined) {
        cases++;
        const r = safe(() => tool.validateInput(c.args));
        if (!r.ok) findings.push(`${tool.name} ${where} args: ${r.message}`);
      }
      if (c.expected !== undefined) {
        cases++;
        const r = safe(() => tool.validateOutput(c.expected));
        if (!r.ok) findings.push(`${tool.name} ${where} expected output: ${r.message}`);
      }
    }
  }
  return row(
    "declare",
    "schema-vs-implementation",
    `${cases} declared call(s) and output(s) of ${tools.length} tool(s) checked against their schemas`,
    findings,
    "make the parameters (or output) schema accept what execute really takes (or returns), or correct the selection case",
  );
}

function safe(run: () => { ok: boolean; issues?: Parameters<typeof formatIssues>[0] }): {
  ok: boolean;
  message: string;
} {
  try {
    const r = run();
    return r.ok
      ? { ok: true, message: "" }
      : { ok: false, message: formatIssues(r.issues ?? []).replace(/\n/g, "; ") };
  } catch (error) {
    return { ok: false, message: `the schema does not compile: ${(error as Error).message}` };
  }
}

/** Row 2: render the catalog for every provider and walk the requests for host-only keys and values. */
export async function leakCheck(ctx: DoctorContext): Promise<DoctorCheck> {
  const findings: string[] = [];
  for (const provider of PROVIDERS) {
    const catalog = await ctx.plane.catalog(provider);
    const leaks = findLeaks(
      { tools: catalog.tools, system: catalog.system, attachments: catalog.attachments },
      [],
      publishedHostKeys(provider),
    );
    for (const leak of leaks) findings.push(`${provider}: ${leak}${toolAt(catalog.tools, leak)}`);
  }
  return row(
    "declare",
    "host-fields-leak",
    `rendered requests of ${PROVIDERS.length} providers walked for host-only keys (timeoutMs, concurrencySafe, execute, ...)`,
    findings,
    "keep host-only fields (timeout, concurrency, permission, display, output) out of the description and parameters schema; declare them as tool fields",
  );
}

function toolAt(tools: unknown[], leak: string): string {
  const m = /^\/tools\/(\d+)/.exec(leak);
  const t = m ? (tools[Number(m[1])] as { name?: string; function?: { name?: string } }) : undefined;
  const name = t?.name ?? t?.function?.name;
  return name ? ` (tool ${name})` : "";
}
