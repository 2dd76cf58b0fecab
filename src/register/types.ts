/** Anything a registry holds: tools now, skills too. */
export interface RegistryEntry {
  readonly name: string;
}

/** What a provider saw when asked for its entries. */
export interface Observation<E> {
  entries: readonly E[];
  /** false: the entries are usable but partial, so the snapshot built from them is not cached. */
  complete?: boolean;
  /** Why the list is partial: shown as the problem's reason. */
  note?: string;
  /**
   * Candidates the provider left out because they can never work (an MCP tool whose schema has a
   * `$ref` that does not resolve, say). Each becomes a `malformed` problem of the snapshot naming
   * the provider and the entry; the observation stays complete (cached): reading it again would
   * leave them out again.
   */
  problems?: readonly EntryProblem[];
}

/** One candidate a provider left out, and why. */
export interface EntryProblem {
  /** The candidate's name as the provider knows it. */
  entry: string;
  reason: string;
}

export type Enumeration<E> = readonly E[] | Observation<E>;

/** A named source of entries (`fs`, `mcp:github`, `skills:project`, ...). */
export interface Provider<E> {
  readonly name: string;
  /** Privilege: a lower rank sorts first and wins a same-name conflict inside a layer. Default 0. */
  readonly rank?: number;
  /**
   * How long this provider's enumerate may take, when it knows better than the registry (an MCP
   * server with a longer start-up timeout). Default: the registry's enumerateTimeoutMs.
   */
  readonly timeoutMs?: number;
  /** Permission namespace of its entries, e.g. "mcp:github". Defaults to the provider name. */
  readonly namespace?: string;
  enumerate(signal: AbortSignal): Enumeration<E> | Promise<Enumeration<E>>;
}

export interface Restrictions {
  /** When present, only these names (or `*` patterns) are inherited from farther layers. */
  allow?: readonly string[];
  /** Names (or `*` patterns) never inherited from farther layers. Deny wins over allow. */
  deny?: readonly string[];
}

export interface Resolved<E> {
  readonly name: string;
  readonly entry: E;
  readonly provider: string;
  readonly layer: string;
  readonly rank: number;
  readonly namespace: string;
}

export interface Shadowed {
  name: string;
  provider: string;
  layer: string;
  /** Who won the name. */
  by: { provider: string; layer: string };
  /** "layer": a nearer layer won; "rank": a lower rank (or earlier registration) in the same layer. */
  reason: "layer" | "rank";
}

export interface Withheld {
  name: string;
  provider: string;
  layer: string;
  /** The layer whose restriction kept it out. */
  by: string;
}

/**
 * One provider's trouble in a read: the `problems` of the catalog, layers and doctor JSON.
 * - "rejected": enumerate threw or timed out; its entries are left out, the snapshot is incomplete.
 * - "incomplete": the provider said its list is partial; its entries are used, not cached.
 * - "malformed": the provider gave an entry that breaks the entry rules (no name, a name twice, a
 *   failed check), or a non-list: the whole provider is left out, the snapshot is incomplete. With
 *   `entry` set and the rest of the provider in the snapshot: a candidate the provider itself left
 *   out (Observation.problems); the snapshot stays complete.
 */
export interface ProviderProblem {
  provider: string;
  layer: string;
  outcome: ProblemOutcome;
  /** What went wrong, for people and for the JSON report. */
  reason: string;
  /** The entry concerned, when the problem is one entry's. */
  entry?: string;
}

/**
 * `untrusted`: a provider the configuration names that was not started because the project is
 * not trusted (its tool modules, MCP servers with a command); trusting it is what adds them.
 */
export type ProblemOutcome = "rejected" | "incomplete" | "malformed" | "untrusted";

export interface Snapshot<E> {
  /** The scope chain read, nearest first (the global layer is always merged in last). */
  readonly chain: readonly string[];
  /** Winning entries in fixed order: rank, provider registration order, provider's own order. */
  readonly entries: readonly Resolved<E>[];
  readonly shadowed: readonly Shadowed[];
  readonly withheld: readonly Withheld[];
  /** Every provider problem of this read, by layer, provider, then entry. */
  readonly problems: readonly ProviderProblem[];
  /** True when a provider was rejected, malformed, gave a partial list, or kept changing while read. */
  readonly incomplete: boolean;
  /** The registry generation this snapshot reflects. */
  readonly generation: number;
  get(name: string): Resolved<E> | undefined;
}

export type InvalidationReason = "provider" | "runtime" | "restriction" | "scope";

export interface Invalidation {
  reason: InvalidationReason;
  layer?: string;
  provider?: string;
  /** The registry generation after the change. */
  generation: number;
}
