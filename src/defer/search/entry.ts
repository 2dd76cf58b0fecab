/**
 * What the search index reads for one tool: plain text, never a schema object. Building one must
 * stay cheap (no JSON Schema is generated), so a catalog of 10,000 deferred tools costs only text.
 */
export interface SearchEntry {
  name: string;
  description: string;
  /** Parameter names and their descriptions, as one text. */
  params?: string;
  /** Namespace or provider, e.g. "mcp:github". */
  namespace?: string;
}

/** Field order inside the index; weights and length norms are arrays in this order. */
export const FIELDS = ["name", "description", "params", "namespace"] as const;
export type Field = (typeof FIELDS)[number];

export function fieldTexts(entry: SearchEntry): string[] {
  return [entry.name, entry.description, entry.params ?? "", entry.namespace ?? ""];
}

/** A cheap identity of an entry's searchable content, to re-index only what changed. */
export function fingerprint(entry: SearchEntry): string {
  return fieldTexts(entry).join("\u0000");
}
