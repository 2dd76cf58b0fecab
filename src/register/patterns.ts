import { wildcard } from "../util/wildcard.js";

/**
 * Restriction lists need only `*` wildcards over entry names. Matched with the linear-time
 * wildcard matcher (src/util/wildcard.ts), not a `.*` RegExp, so a pattern with many stars costs
 * no more than one with a single star.
 */
export function nameMatcher(patterns: readonly string[]): (name: string) => boolean {
  const exact = new Set<string>();
  const wild: Array<(name: string) => boolean> = [];
  for (const p of patterns) {
    if (p.includes("*")) {
      // `?` is literal here, as it always was for restriction lists: escape it by splitting on *
      const parts = p.split("*");
      wild.push(starsOnly(parts));
    } else exact.add(p);
  }
  return (name) => exact.has(name) || wild.some((test) => test(name));
}

/** `*` only (a `?` in a name pattern is a literal character). */
function starsOnly(parts: string[]): (name: string) => boolean {
  if (!parts.some((part) => part.includes("?"))) {
    const w = wildcard(parts.join("*"));
    return (name) => w.test(name);
  }
  // rare: a literal "?" — replace it by a character no name has, on both sides
  const mark = "\u0000";
  const w = wildcard(parts.map((part) => part.replace(/\?/g, mark)).join("*"));
  return (name) => w.test(name.replace(/\?/g, mark));
}
