/** The visible end of a shortened description. */
export const CUT_MARKER = "…[cut]";

/**
 * `text` shortened to at most `cap` characters, marker included, ending on a word boundary when
 * one is near (a single long word is cut inside). Texts within the cap come back unchanged.
 */
export function cutText(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const room = Math.max(0, cap - CUT_MARKER.length);
  let end = room;
  if (room < text.length && !/\s/.test(text[room]!)) {
    const space = lastSpace(text, room);
    // keep the word-boundary cut unless it would throw away more than half the room
    if (space >= room / 2) end = space;
  }
  return `${text.slice(0, end).trimEnd()}${CUT_MARKER}`;
}

function lastSpace(text: string, before: number): number {
  for (let i = before - 1; i >= 0; i--) if (/\s/.test(text[i]!)) return i;
  return -1;
}

/**
 * Water-filling: the largest common cap `c` such that the descriptions, each kept whole when it
 * fits under `c` and cut to `c` otherwise, cost at most `available`. `cost(i, c)` is entry i's
 * cost under cap c and must grow with c. Returns Infinity when nothing needs cutting and
 * undefined when even the smallest cap (`minCap`) does not fit.
 */
export function waterFill(
  lengths: readonly number[],
  available: number,
  cost: (index: number, cap: number) => number,
  minCap = CUT_MARKER.length,
): number | undefined {
  const total = (cap: number) => {
    let sum = 0;
    for (let i = 0; i < lengths.length; i++) sum += cost(i, cap);
    return sum;
  };
  let hi = 0;
  for (const l of lengths) if (l > hi) hi = l;
  if (total(hi) <= available) return Number.POSITIVE_INFINITY;
  if (total(minCap) > available) return undefined;
  let lo = minCap;
  // invariant: total(lo) fits, total(hi) does not
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (total(mid) <= available) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Character cost of a description of `length` under `cap`. */
export function charCost(length: number, cap: number): number {
  return length <= cap ? length : Math.min(cap, Math.max(cap, CUT_MARKER.length));
}
