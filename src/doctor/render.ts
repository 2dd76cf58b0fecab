import type { Toolplane } from "../assemble/toolplane.js";
import { type Catalog, PROVIDERS, type ProviderName } from "../render/index.js";
import { type DoctorCheck, type DoctorContext, row } from "./types.js";

async function catalogs(plane: Toolplane): Promise<Map<ProviderName, Catalog>> {
  const out = new Map<ProviderName, Catalog>();
  for (const p of PROVIDERS) out.set(p, await plane.catalog(p));
  return out;
}

/** Findings that read the same for several providers, said once with the providers named. */
class ByProvider {
  private readonly seen = new Map<string, ProviderName[]>();
  add(provider: ProviderName, text: string): void {
    this.seen.set(text, [...(this.seen.get(text) ?? []), provider]);
  }
  lines(): string[] {
    return [...this.seen].map(
      ([text, ps]) => `${ps.length === PROVIDERS.length ? "every provider" : ps.join(", ")}: ${text}`,
    );
  }
}

/**
 * Row 8: catalog total against the budget; which entries were cut, by how much and by what (the
 * budget, or the per-description cap `catalog.descriptionMaxChars`), or left out.
 */
export async function budgetCheck(ctx: DoctorContext): Promise<DoctorCheck> {
  const found = new ByProvider();
  const totals: string[] = [];
  const causes = new Set<"budget" | "descriptionMaxChars" | "omitted">();
  for (const [p, c] of await catalogs(ctx.plane)) {
    totals.push(`${p} ${c.budget.used}/${c.budget.limit} ${c.budget.unit}`);
    for (const cut of c.report.cut) {
      causes.add(cut.by);
      const why =
        cut.by === "budget"
          ? "to fit the budget"
          : "at catalog.descriptionMaxChars (the per-description cap)";
      found.add(
        p,
        `"${cut.name}" cut from ${cut.original} to ${cut.kept} chars (-${cut.original - cut.kept}) ${why}`,
      );
    }
    if (c.report.omitted.length > 0) {
      causes.add("omitted");
      found.add(p, `left out entirely: ${c.report.omitted.join(", ")}`);
    }
  }
  const fixes: string[] = [];
  if (causes.has("descriptionMaxChars"))
    fixes.push(
      `raise catalog.descriptionMaxChars (now ${ctx.plane.config.get("catalog.descriptionMaxChars")}) or shorten those descriptions`,
    );
  if (causes.has("budget") || causes.has("omitted") || fixes.length === 0)
    fixes.push(
      "raise catalog.budget.chars (or catalog.budget.tokens), shorten the long descriptions, disable unused tools or skills, or defer tools",
    );
  return row(
    "render",
    "over-budget",
    `catalog against budget: ${totals.join("; ")}`,
    found.lines(),
    fixes.join("; "),
  );
}

/**
 * Row 9: the catalog rendered again with every numeric run-time key changed: a different prefixHash
 * means run-time values reach the stable prefix. Also flags description numbers equal to a
 * run-time value followed by its unit (`120000 ms`), or large enough (>= 10000) to be no accident.
 */
export async function volatileCheck(ctx: DoctorContext): Promise<DoctorCheck> {
  const { plane } = ctx;
  const runtime = plane.config.ofKind("run-time");
  const numeric = Object.entries(runtime).filter(
    (e): e is [string, number] => typeof e[1] === "number" && Number.isInteger(e[1]),
  );
  const changed = numeric.map(([k, v]) => `${k}=${v + 1}`);
  const found = new ByProvider();
  const before = await catalogs(plane);
  const other = await ctx.reopen(changed);
  try {
    const after = await catalogs(other);
    for (const [p, c] of before) {
      const d = after.get(p)!;
      if (c.prefixHash === d.prefixHash) continue;
      const moved = toolDescriptions(c, d);
      found.add(
        p,
        `prefixHash changed when only run-time keys changed${moved.length > 0 ? ` (descriptions that changed: ${moved.join(", ")})` : " (the system catalog changed)"}`,
      );
    }
  } finally {
    await other.close();
  }
  const findings = found.lines();
  const first = before.get("anthropic")!;
  for (const t of first.tools as Array<{ name: string; description: string }>) {
    for (const [key, value] of numeric) {
      if (mentions(t.description, value, unitOf(key)))
        findings.push(`tool "${t.name}": its description holds ${value}, the value of run-time key ${key}`);
    }
  }
  return row(
    "render",
    "volatile-in-stable-prefix",
    `catalog rendered twice, with ${changed.length} run-time key(s) changed between; descriptions scanned for run-time values`,
    findings,
    "keep run-time values (timeouts, limits, concurrency) out of descriptions: static text only, with volatile facts sent as an attachment message",
  );
}

function toolDescriptions(a: Catalog, b: Catalog): string[] {
  const names: string[] = [];
  const bTools = new Map(
    (b.tools as Array<Record<string, unknown>>).map((t) => [nameOf(t), JSON.stringify(t)]),
  );
  for (const t of a.tools as Array<Record<string, unknown>>)
    if (bTools.get(nameOf(t)) !== JSON.stringify(t)) names.push(nameOf(t));
  return names;
}

function nameOf(t: Record<string, unknown>): string {
  return String(t.name ?? (t.function as { name?: string } | undefined)?.name ?? "?");
}

/** The unit word of a key's last camel segment: timeoutMs -> "ms", maxMatches -> "matches". */
function unitOf(key: string): string {
  const last = key.split(".").pop() ?? key;
  const parts = last.split(/(?=[A-Z])/);
  return (parts[parts.length - 1] ?? last).toLowerCase();
}

// Number words written with or without thousands separators: "120000", "120,000", "120_000".
function mentions(text: string, value: number, unit: string): boolean {
  const stem = unit.replace(/e?s$/, "");
  for (const m of text.matchAll(/(\d[\d,_]*)(\s*[A-Za-z]+)?/g)) {
    if (Number(m[1]!.replace(/[,_]/g, "")) !== value) continue;
    const word = (m[2] ?? "").trim().toLowerCase();
    if (
      value >= 10_000 ||
      (word !== "" && (word.startsWith(stem) || (unit === "ms" && word.startsWith("millisecond"))))
    )
      return true;
  }
  return false;
}
