/**
 * `*` and `?` wildcards over plain strings (names, command lines, argument values): `*` is any run
 * of characters, "/" included, `?` exactly one character (a code point).
 *
 * Hand-written, not a RegExp: a glob compiled to a backtracking regex (`[\s\S]*` per star, or
 * picomatch's `[^/]*?`) takes time exponential in the number of stars on a value that nearly
 * matches: `*a*b*c*` against 12,000 characters of "ab" ran for minutes. Split at the stars, the
 * pattern is a sequence of segments that must occur in order, the first at the start and the last
 * at the end; taking each middle segment at its leftmost occurrence is optimal, so one left-to-right
 * pass decides. Cost: O(value length x longest segment) at worst, O(value length) for segments
 * without `?` (they are found with indexOf).
 */
export interface Wildcard {
  /** The pattern as given. */
  readonly source: string;
  test(value: string): boolean;
}

interface Segment {
  chars: string[];
  /** Literal text when the segment has no `?` (found with indexOf / startsWith / endsWith). */
  literal?: string;
}

const cache = new Map<string, Wildcard>();
const CACHE_MAX = 2048;

/** Compiles once per (pattern, case) pair; `nocase` folds both sides to lower case. */
export function wildcard(pattern: string, nocase = false): Wildcard {
  const key = `${nocase ? "i" : "c"}:${pattern}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = compile(pattern, nocase);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(key, hit);
  }
  return hit;
}

function compile(pattern: string, nocase: boolean): Wildcard {
  const fold = (s: string) => (nocase ? s.toLowerCase() : s);
  const parts = fold(pattern).split("*");
  const segments: Segment[] = parts.map((p) => {
    const chars = [...p];
    return chars.includes("?") ? { chars } : { chars, literal: p };
  });
  const starred = segments.length > 1;
  return {
    source: pattern,
    test(raw: string): boolean {
      const value = fold(raw);
      if (!starred) return matchAt(value, 0, segments[0]!) === value.length;
      const first = segments[0]!;
      const last = segments[segments.length - 1]!;
      let at = matchAt(value, 0, first);
      if (at < 0) return false;
      // the last segment is anchored at the end: the middle ones must fit before it
      const tailStart = startOfTail(value, last);
      if (tailStart < at) return false;
      for (let i = 1; i < segments.length - 1; i++) {
        const found = find(value, at, segments[i]!, tailStart);
        if (found < 0) return false;
        at = found;
      }
      return at <= tailStart;
    },
  };
}

/** Where a segment matched at `from` ends, or -1. */
function matchAt(value: string, from: number, seg: Segment): number {
  if (seg.literal !== undefined) return value.startsWith(seg.literal, from) ? from + seg.literal.length : -1;
  let i = from;
  for (const c of seg.chars) {
    if (i >= value.length) return -1;
    const cp = value.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (c !== "?" && c !== value.slice(i, i + width)) return -1;
    i += width;
  }
  return i;
}

/** Index where the last segment must start for it to end the value, or -1. */
function startOfTail(value: string, seg: Segment): number {
  if (seg.literal !== undefined) return value.endsWith(seg.literal) ? value.length - seg.literal.length : -1;
  // walk back over as many code points as the segment has
  let i = value.length;
  for (let n = 0; n < seg.chars.length; n++) {
    if (i <= 0) return -1;
    const low = value.charCodeAt(i - 1);
    i -= low >= 0xdc00 && low <= 0xdfff && i >= 2 ? 2 : 1;
  }
  return matchAt(value, i, seg) === value.length ? i : -1;
}

/** End of the leftmost occurrence of `seg` starting at or after `from` and ending by `limit`, or -1. */
function find(value: string, from: number, seg: Segment, limit: number): number {
  if (seg.literal !== undefined) {
    const at = value.indexOf(seg.literal, from);
    return at < 0 || at + seg.literal.length > limit ? -1 : at + seg.literal.length;
  }
  for (let start = from; start <= limit; ) {
    const end = matchAt(value, start, seg);
    if (end >= 0 && end <= limit) return end;
    if (start >= value.length) return -1;
    start += (value.codePointAt(start) ?? 0) > 0xffff ? 2 : 1;
  }
  return -1;
}
