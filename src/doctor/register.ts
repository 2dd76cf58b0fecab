import type { ProviderProblem, RegistryEntry } from "../register/index.js";
import { describeProblem, GLOBAL_LAYER, mergeProblems, type Registry } from "../register/index.js";
import { expectations, scopeLabel } from "./expect.js";
import { identicalSkillNames } from "./identical.js";
import { type DoctorCheck, type DoctorContext, row } from "./types.js";

// The registries differ only in entry type; these checks read names, layers and providers.
function registries(ctx: DoctorContext): Registry<RegistryEntry>[] {
  return [ctx.plane.tools, ctx.plane.skills] as unknown as Registry<RegistryEntry>[];
}

/** The chains worth reading: the plane's own, each expectation's, and every scope layer on its own. */
export function chainsOf(ctx: DoctorContext): string[][] {
  const seen = new Map<string, string[]>();
  const add = (chain: string[]) => seen.set(chain.join(">"), chain);
  add(ctx.plane.chain);
  for (const e of expectations(ctx.plane)) add(e.chain);
  for (const reg of registries(ctx))
    for (const layer of reg.layerNames()) if (layer !== GLOBAL_LAYER) add([layer]);
  return [...seen.values()];
}

/** Row 3: same-name overrides, tools and skills, in every chain read; `doctor.overrides` are intended. */
export async function overrideCheck(ctx: DoctorContext): Promise<DoctorCheck> {
  const intended = new Set(ctx.plane.config.get("doctor.overrides") as string[]);
  // the same skill kept in two roots (.agents/skills and .claude/skills) is no conflict
  const copied = identicalSkillNames((await ctx.plane.skillsView()).shadowed);
  const findings = new Set<string>();
  let reads = 0;
  for (const chain of chainsOf(ctx)) {
    for (const reg of registries(ctx)) {
      const snap = await reg.snapshot(chain);
      reads++;
      for (const s of snap.shadowed) {
        if (intended.has(s.name) || (reg.kind === "skill" && copied.has(s.name))) continue;
        findings.add(
          `${reg.kind} "${s.name}" from ${s.provider} (layer ${s.layer}) is shadowed by ${s.by.provider} (layer ${s.by.layer})` +
            (s.reason === "rank" ? " in the same layer" : ""),
        );
      }
    }
  }
  return row(
    "register",
    "same-name-override",
    `${reads} layered reads checked for entries that lose their name to another`,
    [...findings].sort(),
    "rename one of the two, remove the stale one, or list the name in doctor.overrides when the override is intended",
  );
}

/** Where a name is registered, layer by layer (each layer read on its own over nothing else). */
async function layersHolding(reg: Registry<RegistryEntry>, name: string): Promise<string[]> {
  const out: string[] = [];
  for (const layer of reg.layerNames()) {
    const snap = await reg.snapshot(layer === GLOBAL_LAYER ? [] : [layer]);
    const hit = snap.get(name) ?? snap.withheld.find((w) => w.name === name);
    if (hit && hit.layer === layer) out.push(`${layer} (${hit.provider})`);
  }
  return out;
}

/** Row 4: every entry's layer; an expected name that only lives in a layer the chain does not read. */
export async function attributionCheck(ctx: DoctorContext): Promise<DoctorCheck> {
  const { tools, skills } = ctx.plane;
  const findings: string[] = [];
  const counts = new Map<string, number>();
  for (const reg of registries(ctx)) {
    for (const layer of reg.layerNames()) {
      const snap = await reg.snapshot(layer === GLOBAL_LAYER ? [] : [layer]);
      const n = snap.entries.filter((e) => e.layer === layer).length;
      if (n > 0) counts.set(layer, (counts.get(layer) ?? 0) + n);
    }
  }
  for (const e of expectations(ctx.plane)) {
    const t = await tools.snapshot(e.chain);
    const s = await skills.snapshot(e.chain);
    for (const name of e.names) {
      if (
        t.get(name) ||
        s.get(name) ||
        t.withheld.some((w) => w.name === name) ||
        s.withheld.some((w) => w.name === name)
      )
        continue;
      const where = [
        ...(await layersHolding(registries(ctx)[0]!, name)),
        ...(await layersHolding(registries(ctx)[1]!, name)),
      ];
      findings.push(
        where.length > 0
          ? `"${name}" is expected in ${scopeLabel(e.scope)} but is registered in ${where.join(", ")}, which that chain does not read`
          : `"${name}" is expected in ${scopeLabel(e.scope)} but no layer registers it`,
      );
    }
  }
  const summary = [...counts].map(([layer, n]) => `${layer}: ${n}`).join(", ");
  return row(
    "register",
    "layer-attribution",
    `entries per layer: ${summary || "(none)"}; doctor.expect checked against the layers each chain reads`,
    findings,
    "register the provider into a layer of the expecting chain (tools.modules item {path, layer}), or fix the scope name in doctor.expect",
  );
}

/**
 * Every provider problem of the reads the doctor makes (each chain, tools and skills): a provider
 * rejected (threw or timed out), malformed, or partial. Returns the row and the list itself.
 */
export async function providerProblemsCheck(
  ctx: DoctorContext,
): Promise<{ check: DoctorCheck; problems: ProviderProblem[] }> {
  const lists: ProviderProblem[][] = [];
  let reads = 0;
  for (const chain of chainsOf(ctx)) {
    for (const reg of registries(ctx)) {
      lists.push([...(await reg.snapshot(chain)).problems]);
      reads++;
    }
  }
  const problems = mergeProblems(...lists);
  const check = row(
    "register",
    "provider-problems",
    `${reads} layered reads checked for providers that failed, timed out, or gave malformed or partial lists`,
    problems.map(describeProblem),
    "fix or remove the provider named (a tools.modules file, an MCP server in mcp.servers, a skill root); a slow one can be given more time with tools.providerTimeoutMs; an MCP server that needs login: run the toolplane mcp login command it names",
  );
  return { check, problems };
}
