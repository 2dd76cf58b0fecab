import { cmp } from "../util/compare.js";
import { mergeProblems } from "./problems.js";
import { GLOBAL_LAYER, type Registry } from "./registry.js";
import type { ProviderProblem, RegistryEntry } from "./types.js";

export interface LayerEntryView {
  name: string;
  provider: string;
  shadowed: boolean;
  shadowedBy?: { provider: string; layer: string };
  /** Why it lost the name: "layer" (a nearer layer has it) or "rank" (a lower rank in the same layer). */
  shadowReason?: "layer" | "rank";
  /** The layer whose restriction keeps this entry from the chain. */
  withheldBy?: string;
}

export interface LayersView {
  chain: string[];
  incomplete: boolean;
  layers: Array<{ name: string; restrictions?: unknown; entries: LayerEntryView[] }>;
  /** Every provider problem of the reads: `{provider, layer, outcome, reason, entry?}`. */
  problems: ProviderProblem[];
}

/**
 * Every layer's entries as the chain reads them: winners, the entries they shadow, and those a
 * restriction withholds. With an empty chain each scope layer is read on its own over global.
 */
export async function describeLayers<E extends RegistryEntry>(
  registry: Registry<E>,
  chain: readonly string[],
): Promise<LayersView> {
  const names = chain.length > 0 ? [GLOBAL_LAYER, ...[...chain].reverse()] : registry.layerNames();
  const layers: LayersView["layers"] = [];
  let incomplete = false;
  const problems: Array<readonly ProviderProblem[]> = [];
  for (const name of names) {
    const read = chain.length > 0 ? chain : name === GLOBAL_LAYER ? [] : [name];
    const snap = await registry.snapshot(read);
    incomplete ||= snap.incomplete;
    problems.push(snap.problems);
    const entries: LayerEntryView[] = [];
    for (const e of snap.entries)
      if (e.layer === name) entries.push({ name: e.name, provider: e.provider, shadowed: false });
    for (const s of snap.shadowed) {
      if (s.layer === name)
        entries.push({
          name: s.name,
          provider: s.provider,
          shadowed: true,
          shadowedBy: s.by,
          shadowReason: s.reason,
        });
    }
    for (const w of snap.withheld) {
      if (w.layer === name)
        entries.push({ name: w.name, provider: w.provider, shadowed: false, withheldBy: w.by });
    }
    entries.sort((a, b) => cmp(a.name, b.name) || cmp(a.provider, b.provider));
    const layer: LayersView["layers"][number] = { name, entries };
    const restrictions = registry.restrictionsOf(name);
    if (restrictions) layer.restrictions = restrictions;
    layers.push(layer);
  }
  return { chain: [...chain], incomplete, layers, problems: mergeProblems(...problems) };
}
