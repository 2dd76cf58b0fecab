/** Up to `limit` candidates closest to `word` by edit distance, for "did you mean" messages. */
export function nearest(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const lower = word.toLowerCase();
  const scored: Array<[string, number]> = [];
  for (const candidate of candidates) {
    const c = candidate.toLowerCase();
    const distance = c.includes(lower) || lower.includes(c) ? 0.5 : editDistance(lower, c);
    if (distance <= Math.max(2, Math.floor(word.length / 2))) scored.push([candidate, distance]);
  }
  scored.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  return scored.slice(0, limit).map(([name]) => name);
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
