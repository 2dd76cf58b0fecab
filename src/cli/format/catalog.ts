import type { Catalog } from "../../render/index.js";

/** The human view of a catalog. */
export function formatCatalog(catalog: Catalog): string {
  const out: string[] = [];
  const { budget } = catalog;
  out.push(`provider: ${catalog.provider}   prefixHash: ${catalog.prefixHash.slice(0, 16)}`);
  out.push(`budget: ${bar(budget.used, budget.limit)} ${budget.used}/${budget.limit} ${budget.unit}`);
  if (catalog.incomplete)
    out.push("incomplete: a provider failed or gave a partial list (see --json report)");
  out.push("");
  out.push(`tools (${catalog.tools.length}):`);
  for (const tool of catalog.tools) {
    const { name, description } = toolText(tool);
    out.push(`  ${name}`);
    out.push(`    ${description.replace(/\n/g, "\n    ")}`);
  }
  if (catalog.deferred.length > 0)
    out.push("", `deferred (${catalog.deferred.length}): ${catalog.deferred.join(", ")}`);
  if (catalog.system !== "") out.push("", "system:", indent(catalog.system));
  if (catalog.report.cut.length > 0) {
    out.push("", "cut to fit the budget:");
    for (const c of catalog.report.cut) out.push(`  ${c.name}: ${c.original} -> ${c.kept}`);
  }
  if (catalog.report.omitted.length > 0) {
    out.push("", `left out (names did not fit): ${catalog.report.omitted.join(", ")}`);
  }
  return `${out.join("\n")}\n`;
}

export function bar(used: number, limit: number, width = 30): string {
  const ratio = limit > 0 ? Math.min(used / limit, 1) : 1;
  const filled = Math.round(ratio * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${Math.round((used / Math.max(limit, 1)) * 100)}%`;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
}

/** Name and description, whatever the provider's wire form nests them under. */
function toolText(tool: unknown): { name: string; description: string } {
  const t = tool as Record<string, unknown>;
  const inner = (t.function ?? t) as Record<string, unknown>;
  return { name: String(inner.name ?? "?"), description: String(inner.description ?? "") };
}
