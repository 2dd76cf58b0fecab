import { closeSync, constants, fstatSync, openSync } from "node:fs";
import path from "node:path";
import { fdName, runRg } from "../search/rg.js";
import { openedAllowed } from "../shared/opened-path.js";
import type { RawPath } from "../shared/raw-path.js";
import type { PathContext } from "../shared/workspace-path.js";
import type { ContentPage, PageFile } from "./page.js";

/** An open file the second pass reads, and how to let it go. */
export interface OpenedFile {
  readonly fd: number;
  close(): Promise<void>;
}

/** A counted path as an absolute path string (for a name that is not UTF-8, approximately). */
export function absolute(p: RawPath, cwd: string): string {
  return path.resolve(cwd, p.bytes.toString("utf8"));
}

/**
 * Opens one counted file for the second pass: it must be a regular file that really is inside the
 * boundary and allowed, once open. "withheld" when it may not be shown; undefined when it is gone.
 */
export async function openChecked(
  file: RawPath,
  ctx: PathContext,
): Promise<OpenedFile | "withheld" | undefined> {
  const fd = openRaw(file.bytes, ctx.cwd);
  if (fd === undefined) return undefined; // gone since the count: rg would skip it the same way
  const full = absolute(file, ctx.cwd);
  let ok = false;
  try {
    ok = fstatSync(fd).isFile() && (await openedAllowed({ fd }, { real: full, shown: full }, ctx));
  } finally {
    if (!ok) closeSync(fd);
  }
  return ok ? { fd, close: async () => closeSync(fd) } : "withheld";
}

/**
 * Opens a file named by raw bytes, relative to `cwd`; undefined when it is no longer there.
 * Synchronous: pass 2 opens up to a page's worth of files, and an open that cannot wait (see the
 * flags) costs microseconds, where a thread-pool round trip each cost a third of a millisecond.
 */
function openRaw(bytes: Buffer, cwd: string): number | undefined {
  const full = bytes[0] === 0x2f ? bytes : Buffer.concat([Buffer.from(`${cwd}${path.sep}`), bytes]);
  try {
    // O_NONBLOCK: a FIFO put there since the count must not hang the search; O_NOFOLLOW: nor may
    // a symlink put in the file's place (a folder swapped on the way is caught once it is open)
    return openSync(full, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
}

const PREFIX = {
  begin: Buffer.from('{"type":"begin",'),
  match: Buffer.from('{"type":"match",'),
  context: Buffer.from('{"type":"context",'),
  end: Buffer.from('{"type":"end",'),
};
const startsWith = (line: Buffer, prefix: Buffer) =>
  line.length >= prefix.length && line.subarray(0, prefix.length).equals(prefix);

interface RgText {
  text?: string;
  bytes?: string;
}
interface RgRecord {
  data: {
    path: RgText;
    lines: RgText;
    line_number: number;
    submatches?: unknown[];
  };
}

const textOf = (t: RgText) => t.text ?? Buffer.from(t.bytes ?? "", "base64").toString("utf8");

/** The lines of a record's text, without their line ends. */
function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

/** A record's text that is one line (a minified line can be megabytes: no split, no copies). */
const oneLine = (text: string) => text.replace(/\r?\n$/, "");

export interface ReadOptions {
  /** rg flags of the search (how the pattern matches), the pattern last. */
  matchArgs: string[];
  before: number;
  after: number;
  multiline: boolean;
  cwd: string;
  rawMax: number;
  signal?: AbortSignal | undefined;
}

/**
 * The second pass over open files: rg inherits them as fds and reads /dev/fd/NNN in the order given
 * (the three-digit names sort that way), so records come file by file in path order and go to the
 * page as they come. rg is stopped once the page is full and its last match has its context, or
 * once the last file has given every entry it was counted for: given a file by name, rg does not
 * stop at binary data and would read on through a 100 GiB sparse tail.
 */
export async function readIntoPage(
  batch: ReadonlyArray<{ file: PageFile; fd: number }>,
  page: ContentPage,
  o: ReadOptions,
): Promise<void> {
  const byArg = new Map<string, number>(batch.map((_, i) => [fdName(i), i]));
  const context = [
    ...(o.after > 0 ? [`--after-context=${o.after}`] : []),
    ...(o.before > 0 ? [`--before-context=${o.before}`] : []),
  ];
  const args = ["--json", "--sort=path", ...context, ...o.matchArgs, "--", ...batch.map((_, i) => fdName(i))];
  const run = runRg(
    args,
    o.cwd,
    o.rawMax,
    o.signal,
    batch.map((b) => b.fd),
  );
  const last = batch.length - 1;
  let current = -1;
  const enter = (p: RgText) => {
    const i = byArg.get(p.text ?? "");
    if (i === undefined || i === current) return i !== undefined;
    current = i;
    page.startFile(batch[i]!.file);
    return true;
  };
  try {
    for await (const line of run.lines()) {
      // only the records a page uses are parsed; summary records are skipped unread
      if (startsWith(line, PREFIX.match)) {
        const rec = JSON.parse(line.toString("utf8")) as RgRecord;
        if (!enter(rec.data.path)) continue;
        const raw = textOf(rec.data.lines);
        if (o.multiline) page.match(rec.data.line_number, splitLines(raw), rec.data.submatches?.length ?? 1);
        else page.match(rec.data.line_number, [oneLine(raw)], 1);
      } else if (startsWith(line, PREFIX.context)) {
        const rec = JSON.parse(line.toString("utf8")) as RgRecord;
        if (!enter(rec.data.path)) continue;
        page.context(rec.data.line_number, oneLine(textOf(rec.data.lines)));
      } else if (startsWith(line, PREFIX.begin)) {
        enter((JSON.parse(line.toString("utf8")) as RgRecord).data.path);
      } else if (startsWith(line, PREFIX.end)) {
        page.endFile();
        if (current === last) break;
      } else continue;
      if (page.settled || (current === last && page.fileSettled)) break;
    }
  } finally {
    run.stop();
  }
  page.endFile();
  await run.done;
}
