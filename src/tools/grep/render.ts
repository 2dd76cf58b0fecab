import type { RenderedOutput } from "../../declare/types.js";
import { continueHint, plural, rangeOf } from "../search/page.js";
import { type Withheld, withheldNote } from "../search/withheld.js";
import { NOT_UTF8_NOTE } from "../shared/raw-path.js";
import type { GrepFile, GrepMatch, GrepMode, GrepRow, GrepValue } from "./value.js";

// Each row of a page is made by one of these, both when the page is built (to keep it within its
// byte budget) and when it is rendered, so the two can never disagree.

/** The line that names a file, above its matches. */
export const headerRow = (p: { path: string; pathBytes?: string | undefined }) =>
  p.pathBytes === undefined ? p.path : `${p.path}${NOT_UTF8_NOTE}`;
/** A line of a match: `N: text` (rg's `:`). */
export const matchRow = (r: GrepRow) => `${r.line}: ${r.text}`;
/** A context line: `N- text` (rg's `-`). */
export const contextRow = (r: GrepRow) => `${r.line}- ${r.text}`;
/** Between two groups of lines of one file that do not touch, when context lines are shown. */
export const SEPARATOR = "--";
/** A file of files_with_matches or count mode. */
export const fileRow = (f: GrepFile, mode: GrepMode) => {
  const note = f.pathBytes === undefined ? "" : NOT_UTF8_NOTE;
  return mode === "count" ? `${f.path}: ${f.count}${note}` : `${f.path}${note}`;
};

/** The row that says what of a match was left out to fit the page. */
export function omittedRow(o: { lines: number; context: number }): string {
  const parts = [
    ...(o.lines > 0 ? [`${o.lines} more line${o.lines === 1 ? "" : "s"} of this match`] : []),
    ...(o.context > 0 ? [`${o.context} context line${o.context === 1 ? "" : "s"}`] : []),
  ];
  return `(${parts.join(" and ")} not shown, to fit the page: read the file there)`;
}
/** The longest omittedRow can be for a match of up to `rows` rows. */
export const omittedRowMax = (rows: number) => omittedRow({ lines: rows + 2, context: rows + 2 });

/** The rows of one match, in line order. */
export function entryRows(m: GrepMatch): string[] {
  return [
    ...(m.before ?? []).map(contextRow),
    matchRow(m),
    ...(m.continued ?? []).map(matchRow),
    ...(m.after ?? []).map(contextRow),
    ...(m.omitted ? [omittedRow(m.omitted)] : []),
  ];
}

export const firstLine = (m: GrepMatch) => m.before?.[0]?.line ?? m.line;
export const lastLine = (m: GrepMatch) => m.after?.at(-1)?.line ?? m.continued?.at(-1)?.line ?? m.line;

/** The facts a footer states; every number is at most what it is in the value. */
interface FooterFacts {
  mode: GrepMode;
  unit: "lines" | "matches";
  offset: number;
  end: number;
  totalEntries: number;
  nextOffset?: number | undefined;
  totalMatches: number;
  filesWithMatches: number;
  withheld?: Withheld | undefined;
}

function footerOf(f: FooterFacts): string {
  const whole = f.offset === 0 && f.nextOffset === undefined;
  const unit = f.unit === "lines" ? "matching line" : "match";
  const matches = plural(f.totalMatches, unit, f.unit === "lines" ? "matching lines" : "matches");
  const files = plural(f.filesWithMatches, "file");
  const hint = f.nextOffset === undefined ? "" : `; more follow: ${continueHint("grep", f.nextOffset)}`;
  const range = rangeOf({ offset: f.offset, end: f.end, total: f.totalEntries });
  let footer: string;
  if (f.mode === "files_with_matches") {
    footer = whole ? `(${files} with matches)` : `(files ${range} with matches, by path${hint})`;
  } else if (f.mode === "count") {
    footer = whole ? `(${matches} in ${files})` : `(files ${range}, ${matches} in all, by path${hint})`;
  } else {
    const units = f.unit === "lines" ? "matching lines" : "matches";
    footer = whole ? `(${matches} in ${files})` : `(${units} ${range} in ${files}, by path${hint})`;
  }
  const note = withheldNote(f.withheld);
  return note ? `${footer}\n${note}` : footer;
}

/**
 * The most bytes the end of a page can take (the blank line, the footer, the withheld line) when
 * no number in it is above the bounds given: the page builder keeps this much of its budget free.
 */
export function footerReserve(f: Omit<FooterFacts, "nextOffset" | "end">, most: number): number {
  const worst = footerOf({
    ...f,
    offset: most,
    end: most,
    totalEntries: most,
    nextOffset: most,
    totalMatches: most,
    filesWithMatches: most,
    withheld: { denied: most, unapproved: most },
  });
  // the newline after the last row, and the blank line before the footer
  return Buffer.byteLength(worst) + 2;
}

/**
 * content: matches grouped under their path (`N: text`, context `N- text`, `--` between groups
 * that do not touch); files_with_matches: one path a line; count: `path: N`. Then one line saying
 * what the page holds and how to go on, and one saying what permissions left out.
 */
export function renderGrep(value: GrepValue): RenderedOutput {
  const entries = value.mode === "content" ? (value.matches?.length ?? 0) : (value.files?.length ?? 0);
  if (entries === 0 && value.totalEntries === 0) {
    const none = `No matches for ${JSON.stringify(value.pattern)}.`;
    const note = withheldNote(value.withheld);
    return note ? `${none}\n${note}` : none;
  }
  const out: string[] =
    value.mode === "content"
      ? contentRows(value.matches ?? [], value.context !== undefined)
      : (value.files ?? []).map((f) => fileRow(f, value.mode));
  out.push("", footerOf(value));
  const text = out.join("\n");
  const cut = (value.matches ?? []).some((m) => m.cut || m.omitted || m.continued?.some((r) => r.cut));
  if (value.nextOffset !== undefined)
    return { content: [{ type: "text", text }], truncated: true, nextOffset: value.nextOffset };
  return cut ? { content: [{ type: "text", text }], truncated: true } : text;
}

function contentRows(matches: readonly GrepMatch[], separate: boolean): string[] {
  const out: string[] = [];
  let current: string | undefined;
  let last = 0;
  for (const m of matches) {
    if (m.path !== current) {
      if (current !== undefined) out.push("");
      out.push(headerRow(m));
      current = m.path;
    } else if (separate && firstLine(m) > last + 1) {
      out.push(SEPARATOR);
    }
    out.push(...entryRows(m));
    last = lastLine(m);
  }
  return out;
}
