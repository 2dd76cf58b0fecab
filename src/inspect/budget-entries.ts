import type { Catalog, ProviderName } from "../render/index.js";
import { instructionsHeader } from "../render/instructions.js";
import { DEFERRED_HEADER, isSkillsNotListed, SKILLS_HEADER } from "../render/system.js";
import { countTokens } from "../render/tokens.js";
import type { BudgetEntry } from "./api-types.js";

/**
 * Where a rendered catalog's budget goes, piece by piece, read from the catalog's own wire pieces
 * (nothing is rendered again). The budget counts each resident tool's name and description as
 * sent, and the listing (skills and deferred names: the system text, or under catalog.volatile
 * "attachments" those two attachments); so the tools' pieces plus the listing's lines add up to
 * `budget.chars.used`, and their token counts (as the renderer counts them) to `budget.tokens.used`.
 * Natively deferred tools are listed too, marked as not counted: the provider keeps them out of
 * the context until its search loads one.
 */
export function budgetEntries(catalog: Catalog): BudgetEntry[] {
  const cuts = [...catalog.report.cut];
  const takeCut = (name: string): BudgetEntry["cut"] => {
    const i = cuts.findIndex((c) => c.name === name);
    if (i === -1) return undefined;
    const [c] = cuts.splice(i, 1);
    return { original: c!.original, kept: c!.kept, by: c!.by };
  };
  const nameOf = new Map(catalog.report.renamed.map((r) => [r.wireName, r.name]));
  // the native form sends the provider's search tool and then each deferred tool after the resident ones
  const tail = catalog.report.deferral?.form === "native" ? catalog.deferred.length + 1 : 0;
  const resident = catalog.tools.length - tail;
  const entries: BudgetEntry[] = [];
  catalog.tools.forEach((wire, i) => {
    const piece = wirePiece(catalog.provider, wire);
    const name = nameOf.get(piece.name) ?? piece.name;
    const entry: BudgetEntry = {
      kind: i < resident ? "tool" : "native",
      name,
      chars: name.length + piece.description.length,
      tokens: countTokens(name) + countTokens(piece.description),
      counted: i < resident,
    };
    const cut = i < resident ? takeCut(name) : undefined;
    if (cut) entry.cut = cut;
    entries.push(entry);
  });
  const listing = listedText(catalog);
  const lines = listing === "" ? [] : listing.split("\n");
  let afterDeferredHeader = false;
  lines.forEach((line, i) => {
    const newline = i < lines.length - 1 ? 1 : 0;
    if (line === SKILLS_HEADER || line === DEFERRED_HEADER || line === "" || isSkillsNotListed(line)) {
      afterDeferredHeader = line === DEFERRED_HEADER;
      const name =
        line === ""
          ? "(blank line)"
          : line === SKILLS_HEADER
            ? "(skills header)"
            : line === DEFERRED_HEADER
              ? "(deferred header)"
              : "(skills left out)";
      entries.push({
        kind: "frame",
        name,
        chars: line.length + newline,
        tokens: countTokens(line),
        counted: true,
      });
      return;
    }
    if (afterDeferredHeader) {
      afterDeferredHeader = false;
      const entry: BudgetEntry = {
        kind: "deferred",
        name: `${catalog.deferred.length} deferred tool names`,
        chars: line.length + newline,
        tokens: countTokens(line),
        counted: true,
      };
      entries.push(entry);
      return;
    }
    // a skill line: "- name: description" (skill names hold no ": ")
    const split = line.indexOf(": ");
    const name = split > 2 ? line.slice(2, split) : line;
    const description = split > 2 ? line.slice(split + 2) : "";
    const entry: BudgetEntry = {
      kind: "skill",
      name,
      chars: line.length + newline,
      tokens: countTokens(`- ${name}: `) + countTokens(description),
      counted: true,
    };
    const cut = takeCut(name);
    if (cut) entry.cut = cut;
    entries.push(entry);
  });
  return entries;
}

/** The sums of the counted entries. */
export function budgetTotals(entries: readonly BudgetEntry[]): { chars: number; tokens: number } {
  let chars = 0;
  let tokens = 0;
  for (const e of entries) {
    if (!e.counted) continue;
    chars += e.chars;
    tokens += e.tokens;
  }
  return { chars, tokens };
}

/** A wire tool's name and description, per provider form (see src/render/providers). */
export function wirePiece(provider: ProviderName, wire: unknown): { name: string; description: string } {
  const w = (wire ?? {}) as Record<string, unknown>;
  const fn = provider === "openai-chat" && typeof w.function === "object" && w.function !== null;
  const source = fn ? (w.function as Record<string, unknown>) : w;
  const name = typeof source.name === "string" ? source.name : typeof w.type === "string" ? w.type : "";
  const description = typeof source.description === "string" ? source.description : "";
  return { name, description };
}

/**
 * The budgeted listing as one text, the way the renderer counted it: the system text without MCP
 * servers' instructions (outside the budget), or the skills and deferred attachments joined.
 */
function listedText(catalog: Catalog): string {
  if (catalog.system === "")
    return catalog.attachments
      .filter((a) => a.kind === "skills" || a.kind === "deferred")
      .map((a) => a.text)
      .join("\n\n");
  const head = instructionsHeader("");
  const marker = head.slice(0, head.indexOf('""') + 1);
  if (catalog.system.startsWith(marker)) return "";
  const at = catalog.system.indexOf(`\n\n${marker}`);
  return at < 0 ? catalog.system : catalog.system.slice(0, at);
}
