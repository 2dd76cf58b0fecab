import type { Collected } from "./collector.js";
import { buildPreview, cutLines, utf8Boundary } from "./preview.js";

/** The three result limits, kept apart (plus the preview size and the spill cap). */
export interface ResultLimits {
  /** Largest text put into the context as is. */
  inlineMaxBytes: number;
  /** Largest raw output a tool may produce where the output must be parsed. */
  rawMaxBytes: number;
  /** Longest line kept whole. */
  lineMaxChars: number;
  previewBytes: number;
  spillMaxBytes: number;
}

export function limitsFrom(config: Readonly<Record<string, unknown>>): ResultLimits {
  const num = (key: string, fallback: number) => {
    const v = config[key];
    return typeof v === "number" ? v : fallback;
  };
  const inlineMaxBytes = num("results.inlineMaxBytes", 51_200);
  return {
    inlineMaxBytes,
    rawMaxBytes: num("results.rawMaxBytes", 20_000_000),
    lineMaxChars: num("results.lineMaxChars", 2000),
    // a preview bigger than the inline limit would defeat the limit
    previewBytes: Math.min(num("results.previewBytes", 8192), inlineMaxBytes),
    spillMaxBytes: num("results.spillMaxBytes", 4 * 1024 ** 3),
  };
}

export interface LimitedText {
  text: string;
  truncated: boolean;
  spillPath?: string;
}

/**
 * The model-facing text for a collected output. Inline when it fit (long lines cut); otherwise a
 * head-and-tail preview with the spill file's location and the exact call that reads on; or, for
 * a tool that does not spill, the part that fit and a note saying the rest was dropped. Every cut
 * is said in the text itself.
 */
export function limitText(c: Collected, limits: ResultLimits, readTool: string): LimitedText {
  const stoppedNote = c.stopped
    ? `\n[output stopped after ${c.totalBytes} bytes: results.spillMaxBytes is ${limits.spillMaxBytes}; the tool was stopped]`
    : "";
  if (c.inline) {
    const { text, cut } = cutLines(c.inline.toString("utf8"), limits.lineMaxChars);
    return { text: text + stoppedNote, truncated: cut > 0 || c.stopped };
  }
  if (c.dropped || !c.spillPath) {
    const end = utf8Boundary(c.head, limits.inlineMaxBytes);
    const shown = cutLines(c.head.subarray(0, end).toString("utf8"), limits.lineMaxChars).text;
    return {
      text:
        `${shown}\n[output cut: showing the first ${end} of ${c.totalBytes} bytes ` +
        `(results.inlineMaxBytes is ${limits.inlineMaxBytes}); this tool does not spill to a file: ` +
        `ask it for a smaller part]${stoppedNote}`,
      truncated: true,
    };
  }
  const p = buildPreview({
    head: c.head,
    tail: c.tail,
    totalBytes: c.totalBytes,
    newlines: c.newlines,
    endsWithNewline: c.endsWithNewline,
    previewBytes: limits.previewBytes,
    lineMaxChars: limits.lineMaxChars,
  });
  const next = p.headLastLine + 1;
  const readArgs = JSON.stringify({ path: c.spillPath, offset: next, limit: 2000 });
  const shownLines =
    p.headLastLine > 0
      ? `lines 1-${p.headLastLine} and ${p.tailFirstLine}-${p.totalLines}`
      : `the first and last bytes`;
  const header =
    `[output too large to show inline: ${c.totalBytes} bytes, ${p.totalLines} lines ` +
    `(results.inlineMaxBytes is ${limits.inlineMaxBytes}). The full output is saved in ${c.spillPath}]\n` +
    `[showing ${shownLines}; to read more, call ${readTool} with ${readArgs}, or search the file]\n`;
  const gap =
    p.hiddenBytes > 0
      ? `${p.head.endsWith("\n") || p.head === "" ? "" : "\n"}[… ${p.hiddenBytes} bytes not shown` +
        `${p.headLastLine > 0 ? ` (lines ${next}-${p.tailFirstLine - 1})` : ""} …]\n`
      : "";
  return { text: header + p.head + gap + p.tail + stoppedNote, truncated: true, spillPath: c.spillPath };
}

/**
 * Error text under the same limits as a result: long lines cut, and past the inline limit only
 * the first lines kept (errors do not spill: their point is the first lines), with a note saying
 * how much was left out.
 */
export function limitErrorText(text: string, limits: ResultLimits): { text: string; cut: boolean } {
  const lines = cutLines(text, limits.lineMaxChars);
  const buf = Buffer.from(lines.text, "utf8");
  if (buf.length <= limits.inlineMaxBytes) return { text: lines.text, cut: lines.cut > 0 };
  const note = (shown: number) =>
    `\n[error text cut: showing the first ${shown} of ${buf.length} bytes (results.inlineMaxBytes is ${limits.inlineMaxBytes})]`;
  let end = utf8Boundary(buf, Math.max(0, limits.inlineMaxBytes - Buffer.byteLength(note(buf.length))));
  // end on a whole line when there is one
  const nl = buf.lastIndexOf(10, end - 1);
  if (nl > 0) end = nl;
  return { text: buf.subarray(0, end).toString("utf8") + note(end), cut: true };
}
