import type { FileHandle } from "node:fs/promises";
import { BLOCK_BYTES, withBlock } from "./blocks.js";
import { newlineUnit } from "./line-index.js";
import type { TextEncoding } from "./sniff.js";

export interface PageLimits {
  maxLines: number;
  maxBytes: number;
  lineMaxChars: number;
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

/** Marker that ends a cut line. It names the full length so the cut is never silent. */
export function cutMarker(lineBytes: number): string {
  return ` … [line cut: ${lineBytes} bytes in full]`;
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
 * `indexOf`, not 5 MB of string.
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
    const isCut = !whole || text.length > limits.lineMaxChars;
    if (isCut) text = cutText(text, limits.lineMaxChars) + cutMarker(lineBytes);
    const cost = Buffer.byteLength(text) + 1;
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

/** The first `max` code units, never splitting a surrogate pair. */
function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}
