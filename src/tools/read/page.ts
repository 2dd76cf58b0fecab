import type { FileHandle } from "node:fs/promises";
import { cutToFit, lineCutMarker, lineCutMarkerMax } from "../shared/line-cut.js";
import { BLOCK_BYTES, withBlock } from "./blocks.js";
import { newlineUnit } from "./line-index.js";
import type { TextEncoding } from "./sniff.js";

export interface PageLimits {
  maxLines: number;
  /** Bytes the page's rows may take as rendered: prefix, text and the newline after each. */
  maxBytes: number;
  /** Longest row as rendered (prefix and cut marker included), in UTF-16 code units. */
  lineMaxChars: number;
  /** Length of what the render puts before row `i` (ASCII: bytes and code units alike). */
  prefix: (i: number) => number;
}

export interface Page {
  lines: string[];
  /** Indexes into `lines` of lines cut at lineMaxChars (their text ends with the marker). */
  cut: number[];
  /** Indexes into `lines` of lines that ended in CRLF (the CR is not part of the text). */
  crlf: number[];
  /** Byte offset just past the page: where the next line starts. */
  end: number;
  /** Whether the last line read ended with a newline. */
  terminated: boolean;
}

const DECODER_LABEL: Record<TextEncoding, string> = {
  "utf-8": "utf-8",
  "utf-8-bom": "utf-8",
  "utf-16le": "utf-16le",
  "utf-16be": "utf-16be",
  latin1: "latin1",
};

/**
 * Text of buf[from, to). UTF-8 decodes straight from the buffer (the same U+FFFD replacement as
 * TextDecoder, without a view object per line). ignoreBOM: a U+FEFF that starts a line in the
 * middle of a file is text, and a decoder that strips it per call would lose it.
 */
function rangeDecoder(encoding: TextEncoding): (buf: Buffer, from: number, to: number) => string {
  if (encoding === "utf-8" || encoding === "utf-8-bom")
    return (buf, from, to) => buf.toString("utf8", from, to);
  const decoder = new TextDecoder(DECODER_LABEL[encoding], { ignoreBOM: true });
  return (buf, from, to) => decoder.decode(buf.subarray(from, to));
}

/**
 * Reads whole lines from `start`, streaming through a small block: a line longer than the cut
 * keeps only what will be shown and skips the rest, so a 5 MB minified line costs one pass of
 * `indexOf`, not 5 MB of string. The page fits `limits` as rendered, so nothing downstream cuts
 * it again: a row over the line limit is cut here, once, with a marker giving the true remainder;
 * a first row over the byte budget is cut to fit it; any other row that does not fit starts the
 * next page.
 */
export function readPage(
  fh: FileHandle,
  start: number,
  size: number,
  encoding: TextEncoding,
  limits: PageLimits,
): Promise<Page> {
  return withBlock((block) => readPageInto(block, fh, start, size, encoding, limits));
}

async function readPageInto(
  block: Buffer,
  fh: FileHandle,
  start: number,
  size: number,
  encoding: TextEncoding,
  limits: PageLimits,
): Promise<Page> {
  const { bytes: unit, width } = newlineUnit(encoding);
  const decode = rangeDecoder(encoding);
  // enough bytes for lineMaxChars UTF-16 code units in any of the encodings, plus a CR
  const keepBudget = limits.lineMaxChars * 4 + 4;
  const unitBytes = encodedLength(encoding);
  let blockStart = 0;
  let blockLen = 0;
  const page: Page = { lines: [], cut: [], crlf: [], end: start, terminated: true };
  let outBytes = 0;
  let pos = start;
  while (page.lines.length < limits.maxLines && pos < size) {
    const lineStart = pos;
    // The common line lies in one block and is decoded from it by offsets (no view, no copy: a
    // page of small objects per line grows V8's young generation, and with it peak RSS); a line
    // that spans blocks keeps copies of its bytes before the block is refilled.
    let keptFrom = 0;
    let keptTo = 0;
    let spanning: Buffer[] | undefined;
    let keptLen = 0;
    let lineBytes = 0;
    let endsWithCR = false;
    let terminated = false;
    while (pos < size) {
      if (pos < blockStart || pos >= blockStart + blockLen) {
        const { bytesRead } = await fh.read(block, 0, Math.min(BLOCK_BYTES, size - pos), pos);
        blockStart = pos;
        blockLen = bytesRead;
        if (bytesRead === 0) break;
      }
      const off = pos - blockStart;
      let nl = block.indexOf(unit, off);
      while (nl !== -1 && (nl - off) % width !== 0) nl = block.indexOf(unit, nl + 1);
      if (nl >= blockLen) nl = -1;
      const segEnd = nl === -1 ? blockLen : nl;
      const segLen = segEnd - off;
      if (keptLen < keepBudget && segLen > 0) {
        const take = Math.min(segLen, keepBudget - keptLen);
        if (nl !== -1 && spanning === undefined) {
          keptFrom = off;
          keptTo = off + take;
        } else {
          spanning ??= [];
          spanning.push(Buffer.from(block.subarray(off, off + take)));
        }
        keptLen += take;
      }
      if (segLen >= width) endsWithCR = isCR(block, segEnd - width, width, encoding);
      lineBytes += segLen;
      if (nl !== -1) {
        pos = blockStart + nl + width;
        terminated = true;
        break;
      }
      pos = blockStart + blockLen;
    }
    if (lineBytes === 0 && !terminated) break; // the file shrank under us
    const crlf = terminated && endsWithCR;
    const whole = keptLen === lineBytes;
    let text: string;
    if (spanning === undefined) {
      text = keptLen === 0 ? "" : decode(block, keptFrom, whole && crlf ? keptTo - width : keptTo);
    } else {
      const bytes = spanning.length === 1 ? spanning[0]! : Buffer.concat(spanning, keptLen);
      text = decode(bytes, 0, whole && crlf ? keptLen - width : keptLen);
    }
    const prefix = limits.prefix(page.lines.length);
    // the line's own bytes in the file, without its CR
    const fullBytes = crlf ? lineBytes - width : lineBytes;
    // the most text bytes a row can hold: the whole budget, as the first row of a page
    const room = limits.maxBytes - prefix - 1;
    let isCut = !whole || prefix + text.length > limits.lineMaxChars;
    if (!isCut && outBytes + prefix + Buffer.byteLength(text) + 1 > limits.maxBytes) {
      // over the page's byte budget: another row starts the next page; a first row is cut to fit
      if (page.lines.length > 0) {
        pos = lineStart;
        break;
      }
      isCut = true;
    }
    if (isCut) {
      const widest = lineCutMarkerMax(fullBytes);
      const shown = cutToFit(
        text,
        limits.lineMaxChars - prefix - widest.length,
        room - Buffer.byteLength(widest),
      );
      text = shown + lineCutMarker(fullBytes - Math.min(fullBytes, unitBytes(shown)), fullBytes);
    }
    const cost = prefix + Buffer.byteLength(text) + 1;
    if (outBytes + cost > limits.maxBytes && page.lines.length > 0) {
      pos = lineStart;
      break;
    }
    outBytes += cost;
    if (isCut) page.cut.push(page.lines.length);
    if (crlf) page.crlf.push(page.lines.length);
    page.lines.push(text);
    page.terminated = terminated;
  }
  page.end = pos;
  return page;
}

function isCR(buf: Buffer, at: number, width: 1 | 2, encoding: TextEncoding): boolean {
  if (width === 1) return buf[at] === 0x0d;
  return encoding === "utf-16le"
    ? buf[at] === 0x0d && buf[at + 1] === 0
    : buf[at] === 0 && buf[at + 1] === 0x0d;
}

/** Bytes a decoded text took in the file's encoding (U+FFFD for a bad UTF-8 byte counts 3). */
function encodedLength(encoding: TextEncoding): (text: string) => number {
  if (encoding === "utf-16le" || encoding === "utf-16be") return (t) => t.length * 2;
  if (encoding === "latin1") return (t) => t.length;
  return (t) => Buffer.byteLength(t);
}
