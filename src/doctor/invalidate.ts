import { existsSync } from "node:fs";
import type { AnyTool } from "../declare/types.js";
import type { AuditReport } from "../discover/discovery.js";
import type { SkillListing } from "../discover/view.js";
import { GLOBAL_LAYER, Registry } from "../register/index.js";
import { type DoctorCheck, type DoctorContext, row } from "./types.js";
import type { WatchProbe } from "./watch-probe.js";

/**
 * Row 10: after an invalidation, the registry's snapshot against one built from scratch by the same
 * providers (a provider that dropped an entry without calling changed() shows up here), and the
 * skills the incremental state held whose files are gone.
 */
export async function deletionCheck(
  ctx: DoctorContext,
  audit: AuditReport,
  before: readonly SkillListing[],
  probe: WatchProbe,
): Promise<DoctorCheck> {
  const { plane } = ctx;
  const findings: string[] = [];
  plane.tools.invalidate("runtime");
  const cached = await plane.tools.snapshot(plane.chain);
  const enumerateTimeoutMs = plane.config.get("tools.providerTimeoutMs") as number;
  const fresh = new Registry<AnyTool>({ kind: "tool", enumerateTimeoutMs });
  // a provider that failed the cached read has nothing to compare (provider-problems reports it),
  // and asking it again would cost another timeout
  const failed = new Set(
    cached.problems.filter((p) => p.outcome === "rejected").map((p) => `${p.layer}\u0000${p.provider}`),
  );
  for (const layer of plane.tools.layerNames()) {
    for (const p of plane.tools.providers(layer))
      if (!failed.has(`${layer}\u0000${p.name}`)) fresh.register(layer, p);
    const r = plane.tools.restrictionsOf(layer);
    if (r && layer !== GLOBAL_LAYER) fresh.restrict(layer, r);
  }
  const rebuilt = await fresh.snapshot(plane.chain);
  for (const e of cached.entries)
    if (!rebuilt.get(e.name))
      findings.push(
        `tool "${e.name}" (${e.provider}) is gone from its provider but still in the cached snapshot`,
      );
  for (const e of rebuilt.entries)
    if (!cached.get(e.name))
      findings.push(
        `tool "${e.name}" (${e.provider}) is new in its provider but missing from the cached snapshot`,
      );
  for (const d of audit.differences)
    if (d.kind === "extra")
      findings.push(`skill "${d.entry}" in ${d.root} was deleted but the incremental state still held it`);
  for (const s of before)
    if (!existsSync(s.path) && !audit.differences.some((d) => d.kind === "extra" && d.entry === s.name))
      findings.push(`skill "${s.name}" points at ${s.path}, which no longer exists`);
  for (const f of probe.missedDeletions) findings.push(`watch probe: ${f}`);
  return row(
    "invalidate",
    "missed-deletion",
    `cached tool snapshot (${cached.entries.length} entries) compared with a fresh build (${rebuilt.entries.length}); skill state compared with a full rescan; a watched probe root given a rename and a delete`,
    findings,
    "a provider whose list shrinks must call changed() on its registration handle (deletions and renames too, not only additions); for skills keep the watcher and its audit running",
  );
}
