import { describeProblem, type ProviderProblem } from "../../register/index.js";
import { type Catalog, DEFERRED_HEADER } from "../../render/index.js";

/** The human view of a catalog: budget bar first, then what the model sees, then what was cut. */
export function formatCatalog(catalog: Catalog & { problems?: readonly ProviderProblem[] }): string {
  const out: string[] = [];
  const { budget, report } = catalog;
  // the whole hash, as --json and the library give it: one form to compare, never a prefix
  out.push(`provider: ${catalog.provider}   prefixHash: ${catalog.prefixHash}`);
  out.push(
    `budget:   ${bar(budget.chars.used, budget.chars.limit)} ${budget.chars.used}/${budget.chars.limit} chars`,
  );
  if (budget.tokens) {
    out.push(
      `          ${bar(budget.tokens.used, budget.tokens.limit)} ${budget.tokens.used}/${budget.tokens.limit} tokens`,
    );
  }
  if (budget.cap !== undefined) out.push(`          descriptions capped at ${budget.cap} chars to fit`);
  const problems = catalog.problems ?? [];
  if (catalog.incomplete || problems.length > 0) {
    out.push(
      catalog.incomplete
        ? "incomplete: a provider failed or gave a partial list; what the others gave is below"
        : problems.every((p) => p.outcome === "untrusted")
          ? "problems: providers of an untrusted project were not started"
          : "problems: some candidates were left out by their providers",
    );
    for (const p of problems) out.push(`  ${describeProblem(p)}`);
  }
  out.push("");
  out.push(`tools (${catalog.tools.length}):`);
  for (const tool of catalog.tools) {
    const { name, description } = toolText(tool);
    out.push(`  ${name}`);
    if (description !== "") out.push(`    ${description.replace(/\n/g, "\n    ")}`);
  }
  if (catalog.system !== "") out.push("", "system:", indent(catalog.system));
  if (catalog.attachments.length > 0) {
    out.push("", "attachments (sent as a message after the cached prefix; not in prefixHash):");
    for (const a of catalog.attachments) out.push(`  [${a.kind}]`, indent(indent(a.text)));
  }
  const deferral = report.deferral;
  if (deferral) {
    const how =
      deferral.form === "native"
        ? "sent with defer_loading behind the provider's tool search"
        : catalog.system.includes(DEFERRED_HEADER)
          ? "by name in the system text, loaded with tool_search"
          : "by name in an attachment, loaded with tool_search";
    out.push("");
    if (deferral.form === "none") out.push(`deferred: none (${deferral.trigger})`);
    else out.push(`deferred (${catalog.deferred.length}, ${how}): ${deferral.trigger}`);
    if (deferral.loaded.length > 0) out.push(`loaded by tool_search: ${deferral.loaded.join(", ")}`);
    if (deferral.changes.length > 0) {
      out.push("residency changes:");
      for (const c of deferral.changes)
        out.push(`  ${c.from} -> ${c.to} (${c.reason}): ${someNames(c.names)}`);
    }
  }
  for (const [by, title] of [
    ["budget", "cut to fit the budget"],
    ["descriptionMaxChars", "cut at catalog.descriptionMaxChars"],
  ] as const) {
    const cuts = report.cut.filter((c) => c.by === by);
    if (cuts.length === 0) continue;
    out.push("", `${title} (${cuts.length}):`);
    const width = Math.max(...cuts.map((c) => c.name.length));
    for (const c of cuts) {
      out.push(`  ${c.name.padEnd(width)}  ${c.original} -> ${c.kept} chars (-${c.original - c.kept})`);
    }
  }
  if (report.omitted.length > 0) {
    out.push("", `left out, names did not fit (${report.omitted.length}): ${report.omitted.join(", ")}`);
  }
  if (report.renamed.length > 0) {
    out.push("", "renamed for this provider:");
    for (const r of report.renamed) out.push(`  ${r.name} -> ${r.wireName}`);
  }
  if (report.conversions.length > 0) {
    out.push("", `schema conversions: ${report.conversions.length} (listed in --json report.conversions)`);
  }
  return `${out.join("\n")}\n`;
}

/** A few names for people; --json lists every one. */
function someNames(names: readonly string[], shown = 8): string {
  if (names.length <= shown) return names.join(", ");
  return `${names.slice(0, shown).join(", ")} and ${names.length - shown} more (--json lists them)`;
}

export function bar(used: number, limit: number, width = 30): string {
  const ratio = limit > 0 ? Math.min(used / limit, 1) : 1;
  const filled = Math.round(ratio * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.round((used / Math.max(limit, 1)) * 100)).padStart(3)}%`;
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
