// A merge whose providers only changed entries in place (same names at the same places): the last
// merge's result with those records swapped, so one tool changed among 10,000 costs the change,
// not a new name map of every tool.
import type { ResolvedList } from "./provider-state.js";
import type { Resolved, Snapshot } from "./types.js";

/** More records changed than this and the merge is done again in full (each costs a scan). */
const MAX_REPLACED = 64;
/** Names looked up in the overlay before it is folded into a new base map. */
const MAX_OVERLAY = 512;

/** What a merge read and made: the next one compares its layout and may patch its result. */
export interface MergeMemo<E> {
  /** Layer names, restriction objects, provider states and ranks, in merge order. */
  keys: readonly unknown[];
  /** Each merged provider's resolved list, in the order of its state in `keys`. */
  lists: readonly (readonly Resolved<E>[])[];
  snapshot: Snapshot<E>;
  base: ReadonlyMap<string, Resolved<E>>;
  overlay: ReadonlyMap<string, Resolved<E>>;
}

/** How a snapshot differs from the one before it, when it was made by patching it. */
export interface SnapshotPatch<E> {
  base: Snapshot<E>;
  /** Winning records replaced, [old, new]; every other entry is the base's, at the same place. */
  replaced: ReadonlyArray<readonly [Resolved<E>, Resolved<E>]>;
}

const patches = new WeakMap<object, SnapshotPatch<unknown>>();

/** The patch a snapshot was made with (undefined: it was merged in full). */
export function snapshotPatch<E>(snapshot: Snapshot<E>): SnapshotPatch<E> | undefined {
  return patches.get(snapshot) as SnapshotPatch<E> | undefined;
}

function sameKeys(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The last merge with the changed records swapped in, or undefined when the lists are not the
 * last ones or patches of them (then the caller merges in full). Names did not move, so neither
 * did any shadowing, withholding or order: a changed record that won its name takes the old
 * one's place, and one that lost stays out.
 */
export function patchMerge<E>(
  last: MergeMemo<E>,
  keys: readonly unknown[],
  lists: readonly ResolvedList<E>[],
  fresh: Pick<Snapshot<E>, "chain" | "problems" | "incomplete" | "generation">,
): MergeMemo<E> | undefined {
  if (!sameKeys(keys, last.keys) || lists.length !== last.lists.length) return undefined;
  const changed: Array<readonly [Resolved<E>, Resolved<E>]> = [];
  for (let k = 0; k < lists.length; k++) {
    const now = lists[k]!;
    if (now.list === last.lists[k]) continue;
    const patch = now.patch;
    if (patch === undefined || patch.from !== last.lists[k]) return undefined;
    for (const pair of patch.replaced) changed.push(pair);
    if (changed.length > MAX_REPLACED) return undefined;
  }
  const was = last.snapshot;
  const entries = was.entries.slice();
  let overlay: Map<string, Resolved<E>> | undefined;
  const replaced: Array<readonly [Resolved<E>, Resolved<E>]> = [];
  for (const [old, now] of changed) {
    // the entries are exactly the records that won their names
    const at = entries.indexOf(old);
    if (at < 0) continue; // shadowed or withheld: it stays out
    entries[at] = now;
    overlay ??= new Map(last.overlay);
    overlay.set(old.name, now);
    replaced.push([old, now]);
  }
  let base = last.base;
  let over: ReadonlyMap<string, Resolved<E>> = overlay ?? last.overlay;
  if (over.size > MAX_OVERLAY) {
    base = new Map([...base, ...over]);
    over = new Map();
  }
  const lookup = (name: string) => over.get(name) ?? base.get(name);
  const snapshot: Snapshot<E> = Object.freeze({
    ...fresh,
    entries,
    shadowed: was.shadowed.slice(),
    withheld: was.withheld.slice(),
    get: lookup,
  });
  patches.set(snapshot, { base: was, replaced } as SnapshotPatch<unknown>);
  return { keys, lists: lists.map((l) => l.list), snapshot, base, overlay: over };
}
