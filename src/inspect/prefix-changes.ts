import { structuredPatch } from "diff";
import type { Catalog, ProviderName } from "../render/index.js";
import type { PrefixChange } from "./api-types.js";

// a catalog of thousands of tools can make Myers' diff slow: past this the change is shown without hunks
const DIFF_TIMEOUT_MS = 1000;

/**
 * The stable prefix of a catalog as text for a diff: the tools, then the system text, the two
 * parts `prefixHash` covers. For people only; the hash itself is the catalog's.
 */
export function prefixText(catalog: Pick<Catalog, "tools" | "system">): string {
  return `${JSON.stringify(catalog.tools, null, 2)}\n--- system text ---\n${catalog.system}\n`;
}

/**
 * Per provider, the last render this inspector saw and the last change of its prefixHash, with
 * the diff between the two renders: what broke the provider's prompt cache.
 */
export class PrefixChanges {
  private readonly last = new Map<ProviderName, { hash: string; text: string; change?: PrefixChange }>();

  /** Records a render; returns the provider's last change (this one when the hash moved). */
  seen(catalog: Catalog, now: Date = new Date()): PrefixChange | undefined {
    const before = this.last.get(catalog.provider);
    if (before?.hash === catalog.prefixHash) return before.change;
    const text = prefixText(catalog);
    const entry: { hash: string; text: string; change?: PrefixChange } = { hash: catalog.prefixHash, text };
    if (before) {
      entry.change = {
        from: before.hash,
        to: catalog.prefixHash,
        at: now.toISOString(),
        hunks: hunks(before.text, text),
      };
    }
    this.last.set(catalog.provider, entry);
    return entry.change;
  }
}

function hunks(before: string, after: string): PrefixChange["hunks"] {
  const patch = structuredPatch("before", "after", before, after, undefined, undefined, {
    context: 3,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (patch === undefined) return [{ header: "(the diff took too long to compute)", lines: [] }];
  return patch.hunks.map((h) => ({
    header: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
    lines: h.lines,
  }));
}
