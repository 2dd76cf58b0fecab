import { createRequire } from "node:module";

/** diff, loaded by the first edit or write that shows one (it is CommonJS here, so synchronous). */
let diff: typeof import("diff") | undefined;
const loadDiff = () => (diff ??= createRequire(import.meta.url)("diff") as typeof import("diff"));

export interface FileDiff {
  /** Unified diff, 3 lines of context; empty when nothing changed. */
  text: string;
  added: number;
  removed: number;
  /** True when the diff was too costly to compute and only the counts of lines are known. */
  summaryOnly?: boolean;
}

// A rewrite of a big file can make Myers' diff quadratic: past this it gives up and says so.
const DIFF_TIMEOUT_MS = 2000;

/** The unified diff the model sees after a change (the host's result limits cut a long one). */
export function unifiedDiff(shown: string, before: string, after: string): FileDiff {
  const patch = loadDiff().structuredPatch(`a/${shown}`, `b/${shown}`, before, after, undefined, undefined, {
    context: 3,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (patch === undefined) {
    const count = (s: string) => (s === "" ? 0 : s.split("\n").length);
    return { text: "", added: count(after), removed: count(before), summaryOnly: true };
  }
  const out = [`--- ${patch.oldFileName}`, `+++ ${patch.newFileName}`];
  let added = 0;
  let removed = 0;
  for (const h of patch.hunks) {
    out.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    for (const line of h.lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
      out.push(line);
    }
  }
  return { text: patch.hunks.length === 0 ? "" : out.join("\n"), added, removed };
}
