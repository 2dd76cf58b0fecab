/** Anything a registry holds: tools now, skills too. */
export interface RegistryEntry {
  readonly name: string;
}

/** What a provider saw when asked for its entries. */
export interface Observation<E> {
  entries: readonly E[];
  /** false: the entries are usable but partial, so the snapshot built from them is not cached. */
  complete?: boolean;
  /** Why the list is partial: shown as the problem's message. */
  note?: string;
}

export type Enumeration<E> = readonly E[] | Observation<E>;

/** A named source of entries (`fs`, `mcp:github`, `skills:project`, ...). */
export interface Provider<E> {
  readonly name: string;
  /** Privilege: a lower rank sorts first and wins a same-name conflict inside a layer. Default 0. */
  readonly rank?: number;
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

export interface ProviderProblem {
  provider: string;
  layer: string;
  /** "rejected": threw or timed out; "incomplete": the provider said its list is partial. */
  outcome: "rejected" | "incomplete";
  message: string;
}

export interface Snapshot<E> {
  /** The scope chain read, nearest first (the global layer is always merged in last). */
  readonly chain: readonly string[];
  /** Winning entries in fixed order: rank, provider registration order, provider's own order. */
  readonly entries: readonly Resolved<E>[];
  readonly shadowed: readonly Shadowed[];
  readonly withheld: readonly Withheld[];
  readonly problems: readonly ProviderProblem[];
  /** True when a provider was rejected, gave a partial list, or kept changing while read. */
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
