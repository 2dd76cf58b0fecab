import type { BfclFunction } from "./search-data.js";
import { paramText } from "./search-data.js";

/** The README's floor: plain Okapi BM25 (k1 1.2, b 0.75) over one bag of words per tool. */
export function baselineTokens(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

export class PlainBm25 {
  private readonly docs: { name: string; tf: Map<string, number>; len: number }[] = [];
  private readonly df = new Map<string, number>();
  private readonly avg: number;

  constructor(catalog: readonly BfclFunction[]) {
    for (const fn of catalog) {
      const words = baselineTokens(`${fn.name.replace(/[._]/g, " ")} ${fn.description} ${paramText(fn)}`);
      const tf = new Map<string, number>();
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
      this.docs.push({ name: fn.name, tf, len: words.length });
    }
    this.avg = this.docs.reduce((s, d) => s + d.len, 0) / Math.max(1, this.docs.length);
  }

  search(query: string): { name: string; score: number }[] {
    const n = this.docs.length;
    // Each distinct query word counts once: this reproduces the README's figures exactly.
    const q = [...new Set(baselineTokens(query))];
    const out = this.docs.map((d) => {
      let s = 0;
      for (const w of q) {
        const f = d.tf.get(w);
        if (!f) continue;
        const df = this.df.get(w)!;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        s += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.len) / this.avg));
      }
      return { name: d.name, score: s };
    });
    return out.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1));
  }
}
