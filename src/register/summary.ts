import { cmp } from "../util/compare.js";
import type { Snapshot } from "./types.js";

export interface EntrySummary {
  name: string;
  provider: string;
  layer: string;
}

/** Summaries are sorted by name (code-point order), whatever the resolution order was. */
export function summarize<E>(snapshot: Snapshot<E>): EntrySummary[] {
  return snapshot.entries
    .map(({ name, provider, layer }) => ({ name, provider, layer }))
    .sort((a, b) => cmp(a.name, b.name));
}
