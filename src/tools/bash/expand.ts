import { expandBraces } from "./braces.js";
import type { CheckBudget } from "./budget.js";
import { expandPathname, GLOB_MAX_MATCHES, isPattern } from "./glob.js";

export { GLOB_MAX_MATCHES } from "./glob.js";

/**
 * Brace expansion (textual, as bash does it first), then each word's pathname expansion, from
 * `cwd`. undefined past GLOB_MAX_MATCHES; throws BraceUnknown or GlobUnknown where bash's answer
 * is not modelled.
 */
export function expandWords(pattern: string, cwd: string, budget?: CheckBudget): string[] | undefined {
  const words = expandBraces(pattern, GLOB_MAX_MATCHES, budget);
  if (words === undefined) return undefined;
  const out: string[] = [];
  for (const w of words) {
    const names = isPattern(w) ? expandPathname(w, cwd, budget) : [w];
    if (names === undefined) return undefined;
    out.push(...names);
    if (out.length > GLOB_MAX_MATCHES) return undefined;
  }
  return out;
}
