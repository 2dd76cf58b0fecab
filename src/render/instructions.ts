// MCP servers' instructions as the model reads them: one part per server, sorted by server name,
// each capped by catalog.descriptionMaxChars with the visible cut marker (they sit outside the
// budget, which is for the tool and skill catalog, but no server may fill the context).
import { cutText } from "./budget.js";
import type { BudgetCut, ServerInstructions } from "./types.js";

export interface InstructionParts {
  /** One text per server with instructions, in server-name order. */
  texts: string[];
  cuts: BudgetCut[];
}

export function instructionsHeader(server: string): string {
  return `Instructions from MCP server "${server}":`;
}

export function renderInstructions(
  list: readonly ServerInstructions[] | undefined,
  maxChars: number,
): InstructionParts {
  const texts: string[] = [];
  const cuts: BudgetCut[] = [];
  const sorted = [...(list ?? [])]
    .filter((i) => i.text.trim() !== "")
    .sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
  for (const { server, text } of sorted) {
    const body = text.trim();
    const kept = body.length > maxChars ? cutText(body, maxChars) : body;
    if (kept.length < body.length)
      cuts.push({
        name: `mcp:${server}`,
        original: body.length,
        kept: kept.length,
        by: "descriptionMaxChars",
      });
    texts.push(`${instructionsHeader(server)}\n${kept}`);
  }
  return { texts, cuts };
}

/** Whether two instruction lists say the same (by value: callers build new objects per read). */
export function sameInstructions(
  a: readonly ServerInstructions[] | undefined,
  b: readonly ServerInstructions[] | undefined,
): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  return x.every((v, i) => v.server === y[i]!.server && v.text === y[i]!.text);
}
