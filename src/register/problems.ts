import { cmp } from "../util/compare.js";
import type { ProviderProblem } from "./types.js";

/**
 * The problems of several reads (the tool and the skill registries, several chains) as one list:
 * the `problems` of the catalog, layers and doctor JSON. Sorted, and the same provider's problem
 * seen by two reads is listed once (the first read's reason: a timed-out provider's later reads add
 * when it will be asked again).
 */
export function mergeProblems(...lists: ReadonlyArray<readonly ProviderProblem[]>): ProviderProblem[] {
  const seen = new Map<string, ProviderProblem>();
  for (const list of lists) {
    for (const p of list) {
      const key = [p.layer, p.provider, p.entry ?? "", p.outcome].join("\u0000");
      if (!seen.has(key)) seen.set(key, { ...p });
    }
  }
  return [...seen.values()].sort(
    (a, b) =>
      cmp(a.layer, b.layer) ||
      cmp(a.provider, b.provider) ||
      cmp(a.entry ?? "", b.entry ?? "") ||
      cmp(a.outcome, b.outcome) ||
      cmp(a.reason, b.reason),
  );
}

/** One line per problem, for people. */
export function describeProblem(p: ProviderProblem): string {
  const entry = p.entry !== undefined ? ` entry "${p.entry}"` : "";
  return `${p.provider} (layer ${p.layer})${entry}: ${p.outcome}: ${p.reason}`;
}
