import { GREP_LINE_MAX_BYTES } from "../shared/limits.js";
import { cutToFit, lineCutMarker, lineCutMarkerMax } from "../shared/line-cut.js";
import type { RawPath } from "../shared/raw-path.js";
import { contextRow, fileRow, headerRow, matchRow, omittedRowMax, SEPARATOR } from "./render.js";
import type { GrepFile, GrepMatch, GrepMode, GrepRow } from "./value.js";

/** A file whose entries the page may hold: its name and where its entries sit in the whole order. */
export interface PageFile {
  path: RawPath;
  /** Index of its first entry. */
  start: number;
  /** Its entries, as counted by the first pass. */
  count: number;
}

export interface PageOptions {
  /** Index of the page's first entry. */
  offset: number;
  /** Most entries on the page. */
  limit: number;
  /** Bytes the rows may take (the footer's share already kept apart). */
  budget: number;
  lineMax: number;
}

const DOT_SLASH = Buffer.from("./");

/** rg prints paths under "." with a leading "./": the result shows them relative, without it. */
export const tidy = (p: RawPath): RawPath =>
  p.bytes.subarray(0, 2).equals(DOT_SLASH)
    ? { bytes: p.bytes.subarray(2), shown: p.shown.slice(2), utf8: p.utf8 }
    : p;

const named = (p: RawPath) => {
  const t = tidy(p);
  return t.utf8 ? { path: t.shown } : { path: t.shown, pathBytes: t.bytes.toString("base64") };
};

const cost = (row: string) => Buffer.byteLength(row) + 1;

/**
 * A row as the result keeps it. Its rendered form (`N: text`) fits results.lineMaxChars and its
 * text is at most 2,000 bytes (and at most `room` bytes with its prefix), so the host never cuts it
 * again: a longer line is cut here, once, and its marker gives the true remainder.
 */
export function toRow(line: number, raw: string, lineMax: number, room = Number.POSITIVE_INFINITY): GrepRow {
  const prefix = `${line}: `.length;
  const bytes = Buffer.byteLength(raw);
  const maxBytes = Math.min(GREP_LINE_MAX_BYTES, room - prefix - 1);
  if (prefix + raw.length <= lineMax && bytes <= maxBytes) return { line, text: raw };
  const widest = lineCutMarkerMax(bytes);
  const shown = cutToFit(raw, lineMax - prefix - widest.length, maxBytes - Buffer.byteLength(widest));
  return { line, text: shown + lineCutMarker(bytes - Buffer.byteLength(shown), bytes), cut: true };
}

/**
 * Builds one page of content mode from rg's records, file by file in path order, within the page's
 * entry range and byte budget. An entry is a matching line (a match, with multiline) with its
 * context lines; each context line is shown once, with the match it is nearest after, else the one
 * it precedes. A match is admitted only with room kept for the context lines still to come after
 * it; the first match of a page is always shown, trimmed to fit if it must be, and says so.
 */
export class ContentPage {
  readonly matches: GrepMatch[] = [];
  /** No further match is admitted: the page reached its entry limit or its byte budget. */
  full = false;
  /** When full: the index of the first entry not on the page. */
  next: number | undefined;
  private used = 0;
  private readonly worstRow: number;
  private file: PageFile | undefined;
  private named: { path: string; pathBytes?: string } | undefined;
  /** Entries of the current file seen so far. */
  private seen = 0;
  /** Context lines since the last match: the next match's lines before. */
  private pending: GrepRow[] = [];
  /** The last admitted match, while context lines after it may still come. */
  private open: { m: GrepMatch; end: number; trimmed: boolean } | undefined;
  /** Line of the last row of the current file on the page (0: none yet). */
  private lastRow = 0;

  constructor(private readonly o: PageOptions & { before: number; after: number }) {
    // the widest a row can be: a cut one (text at most 2,000 bytes) or lineMax characters of up to
    // three bytes each, with a prefix of up to 11 digits
    this.worstRow = Math.min(GREP_LINE_MAX_BYTES + 80, 3 * o.lineMax) + 16;
  }

  startFile(file: PageFile): void {
    if (this.file === file) return;
    this.endFile();
    this.file = file;
    this.named = named(file.path);
    this.seen = 0;
  }

  endFile(): void {
    this.closeOpen();
    this.file = undefined;
    this.pending = [];
    this.lastRow = 0;
  }

  /** Whether the current file has given every entry it was counted for, with its context. */
  get fileSettled(): boolean {
    return this.file !== undefined && this.seen >= this.file.count && this.open === undefined;
  }

  /** Whether reading may stop: the page is full and its last match has its context. */
  get settled(): boolean {
    return this.full && this.open === undefined;
  }

  /** A match record: its first line, the lines it spans (one unless multiline), its entries. */
  match(line: number, lines: readonly string[], entries: number): void {
    const file = this.file;
    if (file === undefined || this.seen >= file.count) return; // past what was counted
    const k = Math.max(1, Math.min(entries, file.count - this.seen));
    const index = file.start + this.seen;
    this.seen += k;
    this.closeOpen();
    const before = this.pending.filter((r) => r.line >= line - this.o.before);
    this.pending = [];
    if (index + k <= this.o.offset || this.full) return;
    if (index >= this.o.offset + this.o.limit) {
      this.stop(index);
      return;
    }
    const m: GrepMatch = { ...this.named!, ...toRow(line, lines[0] ?? "", this.o.lineMax) };
    const continued = lines.slice(1).map((t, i) => toRow(line + 1 + i, t, this.o.lineMax));
    if (continued.length > 0) m.continued = continued;
    if (before.length > 0) m.before = before;
    const lead = this.leadRows(m);
    const reserve = this.o.after * this.worstRow;
    const whole = [...lead, ...this.rowsOf(m)].reduce((n, r) => n + cost(r), 0);
    let trimmed = false;
    if (this.used + whole + reserve > this.o.budget) {
      if (this.matches.length > 0) {
        this.stop(index);
        return;
      }
      this.trim(m, lead, lines[0] ?? "");
      trimmed = true;
    } else {
      // room for the context lines still to come after it was checked at their widest
      this.used += whole;
    }
    this.matches.push(m);
    const end = line + lines.length - 1;
    this.lastRow = end;
    if (this.o.after > 0) this.open = { m, end, trimmed };
    if (trimmed) this.stop(index + k);
    else if (index + k >= this.o.offset + this.o.limit) this.stop(index + k);
  }

  /** A context line: after the last match if it is near enough, else kept for the next match. */
  context(line: number, text: string): void {
    if (this.file === undefined) return;
    const open = this.open;
    if (open === undefined || line > open.end + this.o.after) {
      if (this.o.before === 0) return;
      this.pending.push(toRow(line, text, this.o.lineMax));
      if (this.pending.length > this.o.before) this.pending.shift();
      return;
    }
    const row = toRow(line, text, this.o.lineMax);
    const c = cost(contextRow(row));
    if (open.trimmed && this.used + c > this.o.budget) {
      open.m.omitted = { lines: open.m.omitted?.lines ?? 0, context: (open.m.omitted?.context ?? 0) + 1 };
    } else {
      if (open.m.after === undefined) open.m.after = [];
      open.m.after.push(row);
      this.used += c;
      this.lastRow = line;
    }
    if (line >= open.end + this.o.after) this.closeOpen();
  }

  private stop(next: number): void {
    this.full = true;
    this.next ??= next;
  }

  private closeOpen(): void {
    this.open = undefined;
  }

  /** The rows a match brings before its own: its file's name, or the separator of a gap. */
  private leadRows(m: GrepMatch): string[] {
    if (this.lastRow === 0) return this.matches.length > 0 ? ["", headerRow(m)] : [headerRow(m)];
    const first = m.before?.[0]?.line ?? m.line;
    const separate = this.o.before + this.o.after > 0 && first > this.lastRow + 1;
    return separate ? [SEPARATOR] : [];
  }

  private rowsOf(m: GrepMatch): string[] {
    return [...(m.before ?? []).map(contextRow), matchRow(m), ...(m.continued ?? []).map(matchRow)];
  }

  /**
   * Fits the page's first match into the budget alone: its first line (cut to fit if it must be),
   * then as many of the lines it spans, then of the lines before it (nearest first), as fit. What
   * is left out is counted in `omitted`, and its row said so.
   */
  private trim(m: GrepMatch, lead: readonly string[], raw: string): void {
    const continued = m.continued ?? [];
    const before = m.before ?? [];
    // the omitted row is rendered last, with the final counts: room for its longest form is kept
    const note = cost(omittedRowMax(continued.length + before.length + this.o.after));
    let room = this.o.budget - lead.reduce((n, r) => n + cost(r), 0) - note;
    if (cost(matchRow(m)) > room) {
      // cut again from the line itself, so the marker still gives the true remainder
      const row = toRow(m.line, raw, this.o.lineMax, room);
      m.text = row.text;
      if (row.cut) m.cut = true;
    }
    room -= cost(matchRow(m));
    const keptContinued: GrepRow[] = [];
    for (const r of continued) {
      if (cost(matchRow(r)) > room) break;
      room -= cost(matchRow(r));
      keptContinued.push(r);
    }
    const keptBefore: GrepRow[] = [];
    for (let i = before.length - 1; i >= 0 && keptContinued.length === continued.length; i--) {
      const c = cost(contextRow(before[i]!));
      if (c > room) break;
      room -= c;
      keptBefore.unshift(before[i]!);
    }
    delete m.continued;
    delete m.before;
    if (keptContinued.length > 0) m.continued = keptContinued;
    if (keptBefore.length > 0) m.before = keptBefore;
    const lines = continued.length - keptContinued.length;
    const context = before.length - keptBefore.length;
    if (lines + context > 0) m.omitted = { lines, context };
    this.used = this.o.budget - room;
  }
}

/**
 * Builds one page of files_with_matches or count mode: one row per file, within the page's entry
 * range and byte budget; the first file of a page is always shown.
 */
export class FilesPage {
  readonly files: GrepFile[] = [];
  full = false;
  next: number | undefined;
  private used = 0;

  constructor(
    private readonly o: PageOptions,
    private readonly mode: GrepMode,
  ) {}

  add(path: RawPath, count: number, index: number): void {
    if (this.full || index < this.o.offset) return;
    if (index >= this.o.offset + this.o.limit) {
      this.stop(index);
      return;
    }
    const f: GrepFile = { ...named(path), count };
    const c = cost(fileRow(f, this.mode));
    if (this.used + c > this.o.budget && this.files.length > 0) {
      this.stop(index);
      return;
    }
    this.used += c;
    this.files.push(f);
    if (index + 1 >= this.o.offset + this.o.limit) this.stop(index + 1);
  }

  private stop(next: number): void {
    this.full = true;
    this.next ??= next;
  }
}
