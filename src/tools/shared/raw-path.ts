import { isUtf8 } from "node:buffer";

/**
 * A file name as ripgrep reports it: raw bytes. Linux allows any bytes but `/` and NUL in a name,
 * so a name need not be UTF-8; such a name cannot travel as a JS string (decoding replaces its
 * bytes with U+FFFD, and two names could become one), so it is kept as bytes.
 */
export interface RawPath {
  /** The bytes of the path, as the file system has them. */
  bytes: Buffer;
  /** The path as shown: itself when it is UTF-8, else escaped (see showPath). */
  shown: string;
  /** Whether the bytes are valid UTF-8 (then `shown` is the path itself and a string can name it). */
  utf8: boolean;
}

/** Follows a shown path that is not UTF-8 wherever a result names it for the model. */
export const NOT_UTF8_NOTE = "  (name not UTF-8: each \\xHH is one raw byte, \\\\ a backslash)";

export function rawPath(bytes: Buffer): RawPath {
  const utf8 = isUtf8(bytes);
  return { bytes, shown: utf8 ? bytes.toString("utf8") : showPath(bytes), utf8 };
}

/**
 * A lossless text form of a path that is not UTF-8: each byte that is not part of a valid UTF-8
 * sequence becomes `\xHH` (two upper-case hex digits) and a backslash becomes `\\`; valid UTF-8
 * sequences stay as they are. Reversible: every `\` in the text starts one of those two escapes.
 */
export function showPath(bytes: Buffer): string {
  let out = "";
  let from = 0; // start of the valid run not yet copied
  let i = 0;
  const flush = (to: number) => {
    if (to > from) out += bytes.toString("utf8", from, to);
  };
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b === 0x5c) {
      flush(i);
      out += "\\\\";
      from = ++i;
      continue;
    }
    const len = sequenceLength(b);
    if (len > 0 && i + len <= bytes.length && isUtf8(bytes.subarray(i, i + len))) {
      i += len;
      continue;
    }
    flush(i);
    out += `\\x${b.toString(16).toUpperCase().padStart(2, "0")}`;
    from = ++i;
  }
  flush(i);
  return out;
}

/** Bytes of the UTF-8 sequence a lead byte starts, or 0 when it cannot start one. */
function sequenceLength(b: number): number {
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 0;
}

/** The bytes a shown path stands for (the inverse of showPath). */
export function parseShownPath(shown: string): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = shown.indexOf("\\"); i !== -1; i = shown.indexOf("\\", from)) {
    parts.push(Buffer.from(shown.slice(from, i), "utf8"));
    if (shown[i + 1] === "\\") {
      parts.push(Buffer.from([0x5c]));
      from = i + 2;
    } else if (shown[i + 1] === "x" && /^[0-9A-F]{2}$/.test(shown.slice(i + 2, i + 4))) {
      parts.push(Buffer.from([Number.parseInt(shown.slice(i + 2, i + 4), 16)]));
      from = i + 4;
    } else {
      throw new Error(`not a shown path: a lone backslash at ${i} in ${JSON.stringify(shown)}`);
    }
  }
  parts.push(Buffer.from(shown.slice(from), "utf8"));
  return Buffer.concat(parts);
}
