import type { ModelContent, RenderedOutput } from "../../declare/types.js";
import type { ReadValue } from "./value.js";

/** What a page row starts with: its line (or entry) number and a tab. */
export function rowPrefix(n: number): string {
  return `${n}\t`;
}

interface FooterFacts {
  kind: "file" | "directory";
  first: number;
  last: number;
  rows: number;
  nextOffset?: number | undefined;
  totalEntries?: number | undefined;
  endsWithNewline?: boolean | undefined;
  cut: number;
  withheld?: number | undefined;
}

/** The line (or two) that ends a page: where it stops and how to go on, and how many lines were cut. */
function footerOf(f: FooterFacts): string {
  const unit = f.kind === "file" ? "lines" : "entries";
  let footer: string;
  if (f.nextOffset !== undefined) {
    const of = f.kind === "directory" ? ` of ${f.totalEntries}` : "";
    footer = `(${unit} ${f.first}-${f.last}${of} shown; more follow: read again with offset=${f.nextOffset})`;
  } else if (f.rows === 0) {
    footer = f.kind === "file" ? "(empty file)" : "(empty folder)";
  } else {
    const noNewline = f.kind === "file" && f.endsWithNewline === false ? ", no newline at end" : "";
    footer = `(end of ${f.kind === "file" ? "file" : "folder"}: ${f.last} ${unit}${noNewline})`;
  }
  if (f.withheld !== undefined && f.withheld > 0) {
    footer += `\n(${f.withheld} entr${f.withheld === 1 ? "y" : "ies"} withheld by permissions)`;
  }
  if (f.cut > 0) {
    footer += `\n(${f.cut} line${f.cut === 1 ? "" : "s"} cut, each where its marker says; grep can search inside them)`;
  }
  return footer;
}

/**
 * The most bytes the footer of a page can take, given where the page starts and the most rows it
 * may hold: the reader keeps this much of the page's byte budget free, so the rendered page (rows,
 * prefixes and footer) fits the budget it was given.
 */
export function footerReserve(
  kind: "file" | "directory",
  offset: number,
  maxRows: number,
  totalEntries?: number,
  withheld?: number,
): number {
  const last = offset + maxRows - 1;
  const worst = [
    footerOf({
      kind,
      first: offset,
      last,
      rows: maxRows,
      nextOffset: last + 1,
      totalEntries,
      cut: maxRows,
      withheld,
    }),
    footerOf({ kind, first: offset, last, rows: maxRows, endsWithNewline: false, cut: maxRows, withheld }),
  ];
  // +1: the newline between the last row and the footer
  return Math.max(...worst.map((f) => Buffer.byteLength(f))) + 1;
}

/** Numbered lines (`N\ttext`), then one line saying where the page ends and how to go on. */
export function renderRead(value: ReadValue): RenderedOutput {
  if (value.kind === "media") {
    const label = `${value.path} (${value.mimeType}, ${value.bytes} bytes)`;
    const block: ModelContent = value.mimeType.startsWith("image/")
      ? { type: "image", mimeType: value.mimeType, data: value.data }
      : { type: "file", mimeType: value.mimeType, data: value.data, name: value.path };
    return { content: [{ type: "text", text: label }, block] };
  }
  const rows = value.kind === "file" ? value.lines : value.entries;
  const body = rows.map((row, i) => `${rowPrefix(value.offset + i)}${row}`);
  const cut = value.kind === "file" ? value.cutLines.length : 0;
  const footer = footerOf({
    kind: value.kind,
    first: value.offset,
    last: value.offset + rows.length - 1,
    rows: rows.length,
    nextOffset: value.nextOffset,
    totalEntries: value.kind === "directory" ? value.totalEntries : undefined,
    endsWithNewline: value.kind === "file" ? value.endsWithNewline : undefined,
    cut,
    withheld: value.kind === "directory" ? value.withheld : undefined,
  });
  const text = [...body, footer].join("\n");
  const content: ModelContent[] = [{ type: "text", text }];
  if (value.nextOffset !== undefined) return { content, truncated: true, nextOffset: value.nextOffset };
  return cut > 0 ? { content, truncated: true } : { content };
}
