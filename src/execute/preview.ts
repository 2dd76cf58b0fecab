import { countNewlinesIn } from "../util/count-newlines.js";

/** Cuts every line longer than `max` characters; each cut line ends with a visible marker. */
export function cutLines(text: string, max: number): { text: string; cut: number } {
  let cut = 0;
  const lines = text.split("\n").map((line) => {
    if (line.length <= max) return line;
    cut += 1;
    let end = max;
    // never split a surrogate pair
    if (end > 0 && isHighSurrogate(line.charCodeAt(end - 1))) end -= 1;
    return `${line.slice(0, end)}… [line cut: ${line.length - end} more characters]`;
  });
  return { text: lines.join("\n"), cut };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The largest index <= end that does not fall inside a UTF-8 sequence. */
export function utf8Boundary(buf: Uint8Array, end: number): number {
  let i = Math.min(end, buf.length);
  if (i >= buf.length) return buf.length;
  while (i > 0 && (buf[i]! & 0xc0) === 0x80) i -= 1;
  return i;
}

export interface PreviewInput {
  /** The first bytes of the output (at least as many as the head preview wants). */
  head: Buffer;
  /** The last bytes of the output. */
  tail: Buffer;
  totalBytes: number;
  /** Newline characters in the whole output. */
  newlines: number;
  /** Whether the last byte of the output was a newline. */
  endsWithNewline: boolean;
  previewBytes: number;
  lineMaxChars: number;
}

export interface Preview {
  head: string;
  tail: string;
  totalLines: number;
  /** Last line shown in the head (1-based; 0 when the head holds no whole line). */
  headLastLine: number;
  /** First line shown in the tail (1-based). */
  tailFirstLine: number;
  /** Bytes between head and tail that are not shown. */
  hiddenBytes: number;
}

/**
 * Head and tail of an output, each cut at a line boundary when one is near, so the model sees
 * whole lines and exact line numbers to page from. Pure.
 */
export function buildPreview(input: PreviewInput): Preview {
  const half = Math.max(1, Math.floor(input.previewBytes / 2));
  const totalLines = input.newlines + (input.totalBytes > 0 && !input.endsWithNewline ? 1 : 0);

  let headBuf = input.head.subarray(0, Math.min(half, input.head.length));
  const lastNl = headBuf.lastIndexOf(10);
  if (lastNl >= 0) headBuf = headBuf.subarray(0, lastNl + 1);
  else headBuf = headBuf.subarray(0, utf8Boundary(headBuf, headBuf.length));
  const headNewlines = countNewlinesIn(headBuf);

  let tailBuf = input.tail.subarray(Math.max(0, input.tail.length - half));
  const tailStartInOutput = input.totalBytes - tailBuf.length;
  if (tailStartInOutput > headBuf.length) {
    // start the tail on a line boundary unless that would hide the whole tail
    const firstNl = tailBuf.indexOf(10);
    if (firstNl >= 0 && firstNl < tailBuf.length - 1) tailBuf = tailBuf.subarray(firstNl + 1);
    else {
      let start = 0;
      while (start < tailBuf.length && (tailBuf[start]! & 0xc0) === 0x80) start += 1;
      tailBuf = tailBuf.subarray(start);
    }
  }
  const tailNewlines = countNewlinesIn(tailBuf);
  const tailLines = tailNewlines + (input.endsWithNewline ? 0 : 1);
  const hiddenBytes = Math.max(0, input.totalBytes - headBuf.length - tailBuf.length);
  return {
    head: cutLines(headBuf.toString("utf8"), input.lineMaxChars).text,
    tail: cutLines(tailBuf.toString("utf8"), input.lineMaxChars).text,
    totalLines,
    headLastLine: headNewlines,
    tailFirstLine: Math.max(1, totalLines - tailLines + 1),
    hiddenBytes,
  };
}
