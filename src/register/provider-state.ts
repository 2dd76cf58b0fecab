// What the registry keeps per provider between reads, and per layer.
import type { EntryProblem, Provider, Resolved, Restrictions } from "./types.js";

/** A provider's resolved records, with how they differ from the list before them. */
export interface ResolvedList<E> {
  entries: readonly E[];
  list: readonly Resolved<E>[];
  /**
   * Set when this list has the names of `from` at the same places (entries changed in place):
   * the records that differ, as [old, new]. What lets a merge patch its last result.
   */
  patch?: { from: readonly Resolved<E>[]; replaced: ReadonlyArray<readonly [Resolved<E>, Resolved<E>]> };
}

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
  /** The last enumeration changed `from` in place: `entries` differs from it at `at` alone (same names). */
  inPlace?: { from: readonly E[]; entries: readonly E[]; at: readonly number[] };
  /** The frozen resolved records of the last entries merged, reused while they are the same array. */
  resolved?: ResolvedList<E>;
}

export interface Layer<E> {
  name: string;
  providers: Map<string, ProviderState<E>>;
  restrictions?: Restrictions;
}
