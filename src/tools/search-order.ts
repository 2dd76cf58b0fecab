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
