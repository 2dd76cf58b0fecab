// One read of the registry: the layers of a chain merged into a snapshot, nearest layer winning a name.
import { cmp } from "../util/compare.js";
import { nameMatcher } from "./patterns.js";
import type {
  EntryProblem,
  Provider,
  ProviderProblem,
  RegistryEntry,
  Resolved,
  Restrictions,
  Shadowed,
  Snapshot,
  Withheld,
} from "./types.js";

export interface ProviderState<E> {
  provider: Provider<E>;
  layer: string;
  seq: number;
  generation: number;
  cached?: { generation: number; entries: readonly E[]; problems: readonly EntryProblem[] };
  /** The last enumeration timed out, or the provider is unavailable: not asked again before `until` for this generation. */
  waiting?: { generation: number; until: number; reason: string };
  /** The entries the last enumeration passed the registry's check with (see Registry.check). */
  checked?: readonly E[];
  /** The frozen resolved records of the last entries merged, reused while they are the same array. */
  resolved?: { entries: readonly E[]; list: readonly Resolved<E>[] };
}

export interface Layer<E> {
  name: string;
  providers: Map<string, ProviderState<E>>;
  restrictions?: Restrictions;
}

export function merge<E extends RegistryEntry>(
  chain: readonly string[],
  order: readonly string[],
  layers: Map<string, Layer<E>>,
  observed: Map<ProviderState<E>, readonly E[]>,
  problems: ProviderProblem[],
  incomplete: boolean,
  generation: number,
): Snapshot<E> {
  let acc = new Map<string, Resolved<E>>();
  const shadowed: Shadowed[] = [];
  const withheld: Withheld[] = [];
  const merged: ProviderState<E>[] = [];
  for (const layerName of order) {
    const layer = layers.get(layerName);
    if (!layer) continue;
    if (layer.restrictions) {
      const allowed = inheritanceFilter(layer.restrictions);
      for (const [name, item] of acc) {
        if (!allowed(name)) {
          acc.delete(name);
          withheld.push({ name, provider: item.provider, layer: item.layer, by: layerName });
        }
      }
    }
    // Inside a layer: rank, then registration order, then the provider's own order.
    const states = [...layer.providers.values()].sort((a, b) => rankOf(a) - rankOf(b) || a.seq - b.seq);
    const own = new Map<string, Resolved<E>>();
    for (const state of states) {
      const entries = observed.get(state);
      if (!entries) continue;
      merged.push(state);
      for (const item of resolvedOf(state, entries)) {
        const winner = own.get(item.name);
        if (winner) shadowed.push({ ...who(item), by: who(winner), reason: "rank" });
        else own.set(item.name, item);
      }
    }
    if (acc.size === 0) {
      acc = own; // nothing farther to shadow: the layer's own map is the merge so far
      continue;
    }
    for (const [name, item] of own) {
      const farther = acc.get(name);
      if (farther) shadowed.push({ ...who(farther), by: who(item), reason: "layer" });
      acc.set(name, item);
    }
  }
  // The fixed order (rank, registration order, the provider's own order) without a sort: walk
  // the providers in that order and keep each entry that won its name.
  merged.sort((a, b) => rankOf(a) - rankOf(b) || a.seq - b.seq);
  const entries: Resolved<E>[] = [];
  for (const state of merged) {
    for (const item of state.resolved!.list) if (acc.get(item.name) === item) entries.push(item);
  }
  shadowed.sort((a, b) => cmp(a.name, b.name) || cmp(a.layer, b.layer) || cmp(a.provider, b.provider));
  withheld.sort((a, b) => cmp(a.name, b.name) || cmp(a.layer, b.layer));
  return Object.freeze({
    chain: [...chain],
    entries,
    shadowed,
    withheld,
    problems,
    incomplete,
    generation,
    get: (name: string) => acc.get(name),
  });
}

/** A provider's entries as frozen resolved records, built once per observed list. */
function resolvedOf<E extends RegistryEntry>(
  state: ProviderState<E>,
  entries: readonly E[],
): readonly Resolved<E>[] {
  const last = state.resolved;
  if (last?.entries === entries) return last.list;
  const provider = state.provider.name;
  const rank = rankOf(state);
  const namespace = state.provider.namespace ?? provider;
  // an entry at the place it had in the last list keeps its record (a changed provider usually
  // changed one entry): what reads a record by identity (visibility) then reads it once
  const same = (r: Resolved<E> | undefined, entry: E) =>
    r !== undefined &&
    r.entry === entry &&
    r.provider === provider &&
    r.layer === state.layer &&
    r.rank === rank &&
    r.namespace === namespace;
  const list = entries.map((entry, i) => {
    const before = last?.list[i];
    return same(before, entry)
      ? before!
      : Object.freeze({ name: entry.name, entry, provider, layer: state.layer, rank, namespace });
  });
  state.resolved = { entries, list };
  return list;
}

function inheritanceFilter(r: Restrictions): (name: string) => boolean {
  const allow = r.allow ? nameMatcher(r.allow) : () => true;
  const deny = r.deny ? nameMatcher(r.deny) : () => false;
  return (name) => !deny(name) && allow(name);
}

function rankOf<E>(state: ProviderState<E>): number {
  return state.provider.rank ?? 0;
}

function who(item: { name: string; provider: string; layer: string }) {
  return { name: item.name, provider: item.provider, layer: item.layer };
}
