// One read of the registry: the layers of a chain merged into a snapshot, nearest layer winning a name.
import { cmp } from "../util/compare.js";
import { type MergeMemo, patchMerge } from "./merge-patch.js";
import { nameMatcher } from "./patterns.js";
import type { Layer, ProviderState, ResolvedList } from "./provider-state.js";
import type {
  ProviderProblem,
  RegistryEntry,
  Resolved,
  Restrictions,
  Shadowed,
  Snapshot,
  Withheld,
} from "./types.js";

export type { Layer, ProviderState } from "./provider-state.js";

/** One observed provider and its resolved records. */
interface Read<E> {
  state: ProviderState<E>;
  resolved: ResolvedList<E>;
}

/**
 * Merges the observed providers of a chain's layers. With `last` (the memo of this chain's last
 * merge), a read whose providers only changed entries in place patches that merge instead.
 */
export function merge<E extends RegistryEntry>(
  chain: readonly string[],
  order: readonly string[],
  layers: Map<string, Layer<E>>,
  observed: Map<ProviderState<E>, readonly E[]>,
  problems: ProviderProblem[],
  incomplete: boolean,
  generation: number,
  last?: MergeMemo<E>,
): MergeMemo<E> {
  // what the merge reads, in its order: each layer's restrictions, its observed providers by rank
  // then registration order (and their ranks), and each provider's resolved records
  const keys: unknown[] = [];
  const lists: ResolvedList<E>[] = [];
  const layerStates: Array<{ name: string; restrictions?: Restrictions; states: Read<E>[] }> = [];
  for (const layerName of order) {
    const layer = layers.get(layerName);
    keys.push(layerName);
    if (!layer) continue;
    keys.push(layer.restrictions);
    const states = [...layer.providers.values()]
      .filter((s) => observed.has(s))
      .sort((a, b) => rankOf(a) - rankOf(b) || a.seq - b.seq);
    const read = states.map((state) => {
      keys.push(state, rankOf(state));
      const resolved = resolvedOf(state, observed.get(state)!);
      lists.push(resolved);
      return { state, resolved };
    });
    layerStates.push({ name: layerName, restrictions: layer.restrictions, states: read });
  }
  const fresh = { chain: [...chain], problems, incomplete, generation };
  const patched = last ? patchMerge(last, keys, lists, fresh) : undefined;
  if (patched) return patched;

  let acc = new Map<string, Resolved<E>>();
  const shadowed: Shadowed[] = [];
  const withheld: Withheld[] = [];
  const merged: Read<E>[] = [];
  for (const { name: layerName, restrictions, states } of layerStates) {
    if (restrictions) {
      const allowed = inheritanceFilter(restrictions);
      for (const [name, item] of acc) {
        if (!allowed(name)) {
          acc.delete(name);
          withheld.push({ name, provider: item.provider, layer: item.layer, by: layerName });
        }
      }
    }
    // Inside a layer: rank, then registration order, then the provider's own order.
    const own = new Map<string, Resolved<E>>();
    for (const read of states) {
      merged.push(read);
      for (const item of read.resolved.list) {
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
  merged.sort((a, b) => rankOf(a.state) - rankOf(b.state) || a.state.seq - b.state.seq);
  const entries: Resolved<E>[] = [];
  for (const { resolved } of merged) {
    for (const item of resolved.list) if (acc.get(item.name) === item) entries.push(item);
  }
  shadowed.sort((a, b) => cmp(a.name, b.name) || cmp(a.layer, b.layer) || cmp(a.provider, b.provider));
  withheld.sort((a, b) => cmp(a.name, b.name) || cmp(a.layer, b.layer));
  const snapshot: Snapshot<E> = Object.freeze({
    ...fresh,
    entries,
    shadowed,
    withheld,
    get: (name: string) => acc.get(name),
  });
  return { keys, lists: lists.map((l) => l.list), snapshot, base: acc, overlay: new Map() };
}

/** A provider's entries as frozen resolved records, built once per observed list. */
function resolvedOf<E extends RegistryEntry>(
  state: ProviderState<E>,
  entries: readonly E[],
): ResolvedList<E> {
  const last = state.resolved;
  if (last?.entries === entries) return last;
  const provider = state.provider.name;
  const rank = rankOf(state);
  const namespace = state.provider.namespace ?? provider;
  const moved = state.inPlace;
  const first = last?.list[0];
  if (
    last &&
    moved?.entries === entries &&
    moved.from === last.entries &&
    (first === undefined || (first.rank === rank && first.namespace === namespace))
  ) {
    // the registry's check found the changed places: swap those records, copy the rest
    const list = last.list.slice();
    const replaced = moved.at.map((i) => {
      const record = Object.freeze({
        name: entries[i]!.name,
        entry: entries[i]!,
        provider,
        layer: state.layer,
        rank,
        namespace,
      });
      list[i] = record;
      return [last.list[i]!, record] as const;
    });
    state.resolved = { entries, list, patch: { from: last.list, replaced } };
    return state.resolved;
  }
  // an entry at the place it had in the last list keeps its record (a changed provider usually
  // changed one entry): what reads a record by identity (visibility) then reads it once
  const same = (r: Resolved<E> | undefined, entry: E) =>
    r !== undefined &&
    r.entry === entry &&
    r.provider === provider &&
    r.layer === state.layer &&
    r.rank === rank &&
    r.namespace === namespace;
  // the same length and every new record under its old one's name: a patch of the last list
  let replaced: Array<readonly [Resolved<E>, Resolved<E>]> | undefined =
    last && last.list.length === entries.length ? [] : undefined;
  const list = entries.map((entry, i) => {
    const before = last?.list[i];
    if (same(before, entry)) return before!;
    const record = Object.freeze({ name: entry.name, entry, provider, layer: state.layer, rank, namespace });
    if (replaced && before?.name === entry.name) replaced.push([before, record]);
    else replaced = undefined;
    return record;
  });
  state.resolved =
    replaced && last ? { entries, list, patch: { from: last.list, replaced } } : { entries, list };
  return state.resolved;
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
