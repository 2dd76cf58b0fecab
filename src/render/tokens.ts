import { createRequire } from "node:module";
import { LRUCache } from "lru-cache";

type CountTokens = (text: string, options?: { disallowedSpecial?: Set<string> }) => number;
let counter: CountTokens | undefined;
// made on first use: an LRUCache allocates its 100,000 slots up front, which every start-up would pay
let counts: LRUCache<string, number> | undefined;
const NO_SPECIALS = { disallowedSpecial: new Set<string>() };

/**
 * o200k token count of a piece of catalog text, memoised by the text. The encoder is loaded only
 * when a token budget is set (its tables take a noticeable time to load). Special-token text such
 * as `<|endoftext|>` in a description is counted as plain text, never rejected.
 */
export function countTokens(text: string): number {
  if (text === "") return 0;
  counts ??= new LRUCache<string, number>({ max: 100_000 });
  const hit = counts.get(text);
  if (hit !== undefined) return hit;
  counter ??= (
    createRequire(import.meta.url)("gpt-tokenizer/encoding/o200k_base") as { countTokens: CountTokens }
  ).countTokens;
  const n = counter(text, NO_SPECIALS);
  counts.set(text, n);
  return n;
}
