import { cmp } from "../util/compare.js";
import { DuplicateProviderError, MalformedEntryError, ProviderUnavailable } from "./errors.js";
import { type Layer, merge, type ProviderState } from "./merge.js";
import type { MergeMemo } from "./merge-patch.js";
import type {
  EntryProblem,
  Invalidation,
  InvalidationReason,
  Observation,
  Provider,
  ProviderProblem,
  RegistryEntry,
  Restrictions,
  Snapshot,
} from "./types.js";

export const GLOBAL_LAYER = "global";

/** setTimeout's largest delay; a larger one would fire after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

export interface RegistryOptions<E> {
  /** What the registry holds, for messages: "tool", "skill". */
  kind?: string;
  /** Extra entry rule: return a reason when the entry is malformed. */
  check?: (entry: E) => string | undefined;
  /** A provider slower than this is rejected for the read (default 10 s). */
  enumerateTimeoutMs?: number;
  /**
   * A provider that timed out is not asked again for this long while its generation is unchanged
   * (default 30 s): the reads in between report it rejected at once, so one hanging provider costs
   * one timeout, not one per read. A `changed()` lets it be asked at once.
   */
  retryAfterTimeoutMs?: number;
  /** Where rejected providers are logged. */
  log?: (line: string) => void;
}

type Observed<E> =
  | { ok: true; entries: readonly E[]; complete: boolean; note?: string; problems: readonly EntryProblem[] }
  | { ok: false; outcome: "rejected" | "malformed"; reason: string; entry?: string };

/** An enumeration that did not answer in time. */
class EnumerationTimeout extends Error {}

/** An answer that is not a list of entries (nor `{entries}`): the provider is malformed. */
class MalformedObservation extends Error {}

/**
 * Layered registry: one global layer plus named scope layers. Providers register into a layer; a
 * read merges the global layer with a scope chain (nearest first), the nearest layer winning a
 * name. Reads are cached per chain until an invalidation; an invalidation carries no diff.
 */
export class Registry<E extends RegistryEntry> {
  readonly kind: string;
  private readonly layersByName = new Map<string, Layer<E>>();
  private readonly listeners = new Set<(event: Invalidation) => void>();
  private readonly snapshots = new Map<string, Snapshot<E>>();
  /** Each chain's last merge, which the next read patches when providers only changed in place. */
  private readonly merges = new Map<string, MergeMemo<E>>();
  private readonly options: RegistryOptions<E>;
  private seq = 0;
  private gen = 0;

  constructor(options: RegistryOptions<E> = {}) {
    this.options = options;
    this.kind = options.kind ?? "entry";
    this.ensureLayer(GLOBAL_LAYER);
  }

  get generation(): number {
    return this.gen;
  }

  /** Layer names: global first, then scope layers in the order they were made. */
  layerNames(): string[] {
    return [...this.layersByName.keys()];
  }

  /** Registers a provider into a layer; a second provider of the same name there is an error. */
  register(layer: string, provider: Provider<E>): { changed(): void; unregister(): void } {
    const target = this.ensureLayer(layer);
    if (typeof provider?.name !== "string" || provider.name === "") {
      throw new TypeError(`a provider registered into layer "${layer}" needs a non-empty string name`);
    }
    const existing = target.providers.get(provider.name);
    if (existing) throw new DuplicateProviderError(layer, provider.name, existing.provider.name);
    target.providers.set(provider.name, { provider, layer, seq: ++this.seq, generation: 0 });
    this.emit("provider", layer, provider.name);
    return {
      changed: () => this.changed(layer, provider.name),
      unregister: () => this.unregister(layer, provider.name),
    };
  }

  unregister(layer: string, providerName: string): boolean {
    const removed = this.layersByName.get(layer)?.providers.delete(providerName) ?? false;
    if (removed) this.emit("provider", layer, providerName);
    return removed;
  }

  /** A provider's entries changed: its cached observation is dropped and readers are told. */
  changed(layer: string, providerName: string): void {
    const state = this.layersByName.get(layer)?.providers.get(providerName);
    if (!state) throw new Error(`no provider "${providerName}" in layer "${layer}"`);
    state.generation++;
    this.emit("provider", layer, providerName);
  }

  /** Sets (or clears, with undefined) what a layer may inherit from farther layers. */
  restrict(layer: string, restrictions: Restrictions | undefined): void {
    this.ensureLayer(layer).restrictions = restrictions;
    this.emit("restriction", layer);
  }

  /** Something outside the providers changed (run-time config, a re-parented scope). */
  invalidate(reason: InvalidationReason = "runtime"): void {
    this.emit(reason);
  }

  on(_event: "invalidated", listener: (event: Invalidation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  providers(layer: string): Provider<E>[] {
    return [...(this.layersByName.get(layer)?.providers.values() ?? [])].map((s) => s.provider);
  }

  restrictionsOf(layer: string): Restrictions | undefined {
    return this.layersByName.get(layer)?.restrictions;
  }

  /**
   * Reads the merged view for a scope chain, nearest layer first. Unknown scope names read as empty
   * layers, so a scope with nothing registered yet still inherits the global layer.
   */
  async snapshot(chain: readonly string[] = []): Promise<Snapshot<E>> {
    const key = chain.join("\u0000");
    const hit = this.snapshots.get(key);
    if (hit && hit.generation === this.gen) return hit;
    const startGeneration = this.gen;
    const order = [GLOBAL_LAYER, ...[...chain].reverse().filter((l) => l !== GLOBAL_LAYER)];
    const problems: ProviderProblem[] = [];
    // a provider's own left-out entries do not make the read incomplete: reading again changes nothing
    let incomplete = false;
    const observed = new Map<ProviderState<E>, readonly E[]>();
    const states = order.flatMap((name) => [...(this.layersByName.get(name)?.providers.values() ?? [])]);
    await Promise.all(
      states.map(async (state) => {
        const provider = state.provider.name;
        const result = await this.observe(state);
        if (!result.ok) {
          incomplete = true;
          const problem: ProviderProblem = {
            provider,
            layer: state.layer,
            outcome: result.outcome,
            reason: result.reason,
          };
          if (result.entry !== undefined) problem.entry = result.entry;
          problems.push(problem);
          this.options.log?.(`${this.kind} provider "${provider}" ${result.outcome}: ${result.reason}`);
          return;
        }
        for (const p of result.problems) {
          problems.push({
            provider,
            layer: state.layer,
            outcome: "malformed",
            reason: p.reason,
            entry: p.entry,
          });
        }
        if (!result.complete) {
          incomplete = true;
          problems.push({
            provider,
            layer: state.layer,
            outcome: "incomplete",
            reason: result.note ?? "the provider reported a partial list",
          });
        }
        observed.set(state, result.entries);
      }),
    );
    problems.sort(
      (a, b) =>
        cmp(a.layer, b.layer) ||
        cmp(a.provider, b.provider) ||
        cmp(a.entry ?? "", b.entry ?? "") ||
        cmp(a.outcome, b.outcome),
    );
    const memo = merge(
      chain,
      order,
      this.layersByName,
      observed,
      problems,
      incomplete,
      startGeneration,
      this.merges.get(key),
    );
    this.merges.set(key, memo);
    const snapshot = memo.snapshot;
    if (!snapshot.incomplete && this.gen === startGeneration) this.snapshots.set(key, snapshot);
    return snapshot;
  }

  private ensureLayer(name: string): Layer<E> {
    if (typeof name !== "string" || name === "")
      throw new TypeError("a layer name must be a non-empty string");
    let layer = this.layersByName.get(name);
    if (!layer) {
      layer = { name, providers: new Map() };
      this.layersByName.set(name, layer);
    }
    return layer;
  }

  private emit(reason: InvalidationReason, layer?: string, provider?: string): void {
    this.gen++;
    this.snapshots.clear();
    const event: Invalidation = { reason, generation: this.gen };
    if (layer !== undefined) event.layer = layer;
    if (provider !== undefined) event.provider = provider;
    for (const listener of [...this.listeners]) listener(event);
  }

  /** One provider's entries: cached per provider generation, retried once if it changes mid-read. */
  private async observe(state: ProviderState<E>): Promise<Observed<E>> {
    if (state.cached && state.cached.generation === state.generation) {
      return { ok: true, entries: state.cached.entries, complete: true, problems: state.cached.problems };
    }
    const waited = state.waiting;
    if (waited && waited.generation === state.generation && Date.now() < waited.until) {
      return { ok: false, outcome: "rejected", reason: waited.reason };
    }
    let last: Observation<E> | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const generation = state.generation;
      let observation: Observation<E>;
      try {
        observation = await this.enumerate(state.provider);
        const at = this.check(state.provider.name, observation.entries, state.checked);
        state.inPlace =
          at && state.checked ? { from: state.checked, entries: observation.entries, at } : undefined;
        state.checked = observation.entries;
      } catch (error) {
        return this.failed(state, generation, error);
      }
      state.waiting = undefined;
      last = observation;
      const problems = entryProblems(observation.problems);
      if (state.generation === generation) {
        const complete = observation.complete !== false;
        if (complete) state.cached = { generation, entries: observation.entries, problems };
        const result: Observed<E> = { ok: true, entries: observation.entries, complete, problems };
        if (!complete && observation.note !== undefined) result.note = observation.note;
        return result;
      }
    }
    return {
      ok: true,
      entries: last?.entries ?? [],
      complete: false,
      note: "the provider changed twice while it was being read",
      problems: entryProblems(last?.problems),
    };
  }

  /** Turns an enumeration's failure into its outcome; a timeout is remembered for the retry wait. */
  private failed(state: ProviderState<E>, generation: number, error: unknown): Observed<E> {
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof MalformedEntryError) {
      return error.entry === ""
        ? { ok: false, outcome: "malformed", reason }
        : { ok: false, outcome: "malformed", reason, entry: error.entry };
    }
    if (error instanceof MalformedObservation) return { ok: false, outcome: "malformed", reason };
    if (error instanceof ProviderUnavailable) {
      // remembered until the provider reports a change (it promised to)
      state.waiting = { generation, until: Number.POSITIVE_INFINITY, reason };
    }
    if (error instanceof EnumerationTimeout) {
      const wait = this.options.retryAfterTimeoutMs ?? 30_000;
      state.waiting = {
        generation,
        until: Date.now() + wait,
        reason: `${reason}; not asked again for ${Math.round(wait / 1000)} s unless it reports a change`,
      };
    }
    return { ok: false, outcome: "rejected", reason };
  }

  private async enumerate(provider: Provider<E>): Promise<Observation<E>> {
    const own = provider.timeoutMs;
    const wanted = typeof own === "number" && own > 0 ? own : (this.options.enumerateTimeoutMs ?? 10_000);
    const timeoutMs = Math.min(wanted, MAX_TIMER_MS);
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // Not unref'd: a CLI whose only pending work is a provider that never answers must wait for
    // this timer, then print what the other providers gave, rather than exit with nothing.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new EnumerationTimeout(`timed out after ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      const result = await Promise.race([
        Promise.resolve().then(() => provider.enumerate(controller.signal)),
        timeout,
      ]);
      // the registry's own copy of each enumeration: a provider that edits its array in place
      // (then says changed) gives a new list, so a list's identity means its entries are the same
      // (the incremental check and the resolved records rely on that)
      if (Array.isArray(result)) return { entries: result.slice() };
      if (result && Array.isArray((result as Observation<E>).entries)) {
        const observation = result as Observation<E>;
        return { ...observation, entries: observation.entries.slice() };
      }
      throw new MalformedObservation(
        `provider "${provider.name}" answered neither a list of entries nor { entries, complete }`,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /** Throws for a malformed list; returns the changed places when only entries changed in place. */
  private check(provider: string, entries: readonly E[], previous?: readonly E[]): number[] | undefined {
    const at = previous === undefined ? undefined : this.checkChanged(provider, entries, previous);
    if (at) return at;
    const seen = new Set<string>();
    entries.forEach((entry, index) => {
      const name = (entry as { name?: unknown })?.name;
      if (typeof name !== "string" || name === "") {
        throw new MalformedEntryError(provider, `#${index}`, "an entry needs a non-empty string name");
      }
      if (seen.has(name)) throw new MalformedEntryError(provider, name, "the provider lists this name twice");
      seen.add(name);
      const reason = this.options.check?.(entry);
      if (reason !== undefined) throw new MalformedEntryError(provider, name, reason);
    });
    return undefined;
  }

  /**
   * A list of the same length whose every entry is the one checked before at its place, or one
   * with the same name there (a tool changed in place): its names are the checked ones, so
   * still unique, and only the changed entries are checked. Returns the changed places (the
   * merge swaps those records alone), or undefined to send the list to the full check.
   * One provider's edit among 10,000 entries then costs a walk of pointers, not a set of names.
   */
  private checkChanged(
    provider: string,
    entries: readonly E[],
    previous: readonly E[],
  ): number[] | undefined {
    if (entries.length !== previous.length) return undefined;
    const at: number[] = [];
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      const before = previous[i]!;
      if (entry === before) continue;
      if ((entry as { name?: unknown } | undefined)?.name !== before.name) return undefined;
      const reason = this.options.check?.(entry!);
      if (reason !== undefined) throw new MalformedEntryError(provider, before.name, reason);
      at.push(i);
    }
    return at;
  }
}

/** A provider's own report of left-out candidates, kept to its well-formed items. */
function entryProblems(raw: unknown): EntryProblem[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((p) => p && typeof p === "object")
    .map((p) => ({
      entry: String((p as EntryProblem).entry ?? ""),
      reason: String((p as EntryProblem).reason ?? ""),
    }));
}
