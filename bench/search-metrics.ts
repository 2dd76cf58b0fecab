/** Retrieval quality over queries with one relevant tool each. */
export interface Quality {
  r1: number;
  r5: number;
  r10: number;
  ndcg10: number;
}

/** `ranks[i]` is the 1-based rank of query i's relevant tool, or Infinity when not retrieved. */
export function quality(ranks: readonly number[]): Quality {
  const n = Math.max(1, ranks.length);
  const within = (k: number) => ranks.filter((r) => r <= k).length / n;
  const ndcg = ranks.reduce((s, r) => s + (r <= 10 ? 1 / Math.log2(r + 1) : 0), 0) / n;
  return { r1: within(1), r5: within(5), r10: within(10), ndcg10: ndcg };
}

/** Area under the ROC curve: the chance a positive outscores a negative, ties counting half. */
export function auroc(positives: readonly number[], negatives: readonly number[]): number {
  const neg = [...negatives].sort((a, b) => a - b);
  let total = 0;
  for (const p of positives) {
    let lo = 0;
    let hi = neg.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (neg[mid]! < p) lo = mid + 1;
      else hi = mid;
    }
    let eq = lo;
    while (eq < neg.length && neg[eq] === p) eq++;
    total += lo + (eq - lo) / 2;
  }
  return total / Math.max(1, positives.length * neg.length);
}
