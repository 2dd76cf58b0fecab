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

/** Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character; the marker shows the cut. */
export function cutUtf8(text: string, maxBytes: number): { text: string; cut: boolean } {
  const buf = Buffer.from(text, "utf8");
  if (buf.length <= maxBytes) return { text, cut: false };
  let end = maxBytes;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return {
    text: `${buf.subarray(0, end).toString("utf8")} … [line cut: ${buf.length} bytes in full]`,
    cut: true,
  };
}
