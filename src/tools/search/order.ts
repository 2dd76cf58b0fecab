/**
 * Orders paths the way a directory walk sorted by name visits them (what `rg --sort path` does):
 * component by component, by code unit. Comparing whole strings would put `a.b/x` before `a/x`.
 */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x === 47) return -1; // '/' ends a component: the shorter name sorts first
    if (y === 47) return 1;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * Sorts items in comparePaths order, fast: each path becomes a key with "/" turned into NUL (which
 * no name can hold, so it sorts before every other unit, as a component's end does), and keys are
 * compared natively. The same order as comparePaths, at a fraction of the cost for thousands of
 * paths (a search's pass 1 sorts every matching file).
 */
export function sortByPath<T>(items: readonly T[], pathOf: (item: T) => string): T[] {
  const keyed = items.map((item) => ({ key: pathOf(item).replaceAll("/", "\0"), item }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((k) => k.item);
}
