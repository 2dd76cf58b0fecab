import { isUtf8 } from "node:buffer";
import type { FileHandle } from "node:fs/promises";
import { importModule } from "../../util/import-module.js";
import { SNIFF_BYTES } from "../shared/limits.js";

export type TextEncoding = "utf-8" | "utf-8-bom" | "utf-16le" | "utf-16be" | "latin1";

export type Sniffed =
  | { kind: "text"; encoding: TextEncoding /** bytes of BOM before the first line */; bom: number }
  | { kind: "media"; mimeType: string; ext: string }
  | { kind: "binary"; type: string };

/** Attachments the model can read as content blocks, not as text. */
export const MEDIA_TYPES: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "application/pdf",
]);

/**
 * A sample that is not valid UTF-8 is binary when over this share of its bytes are control
 * characters no text uses (random bytes have about 11%); otherwise it is single-byte text, read as
 * Latin-1. Counting invalid UTF-8 instead would call short accented Latin-1 text binary.
 */
const CONTROL_BYTES_BINARY_RATIO = 0.05;

/** Tells text from binary and finds the encoding from the first SNIFF_BYTES of the file. */
export async function sniffFile(fh: FileHandle, size: number): Promise<Sniffed> {
  const sample = Buffer.alloc(Math.min(size, SNIFF_BYTES));
  let got = 0;
  while (got < sample.length) {
    const { bytesRead } = await fh.read(sample, got, sample.length - got, got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return sniffBuffer(sample.subarray(0, got), got < size);
}

export async function sniffBuffer(sample: Buffer, more: boolean): Promise<Sniffed> {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) {
    return { kind: "text", encoding: "utf-8-bom", bom: 3 };
  }
  if (sample[0] === 0xff && sample[1] === 0xfe) return { kind: "text", encoding: "utf-16le", bom: 2 };
  if (sample[0] === 0xfe && sample[1] === 0xff) return { kind: "text", encoding: "utf-16be", bom: 2 };
  const nul = sample.indexOf(0);
  const invalid = nul < 0 ? countInvalidUtf8(sample, more) : 0;
  const controls = countControlBytes(sample);
  const plainUtf8 = nul < 0 && invalid === 0;
  // Plain UTF-8 text skips file-type (loading it costs ~8 MiB and a few ms); of the formats it
  // knows, only PDF (and text-like ones such as XML) can start with plain text.
  if (!plainUtf8 || sample.subarray(0, 5).toString("latin1") === "%PDF-") {
    const detected = sample.length > 0 ? await detectType(sample) : undefined;
    if (detected && MEDIA_TYPES.has(detected.mime)) {
      return { kind: "media", mimeType: detected.mime, ext: detected.ext };
    }
    if (detected && !isTextLike(detected.mime)) {
      return { kind: "binary", type: `${detected.ext} (${detected.mime})` };
    }
  }
  if (nul >= 0) return { kind: "binary", type: `binary data (a NUL byte at offset ${nul})` };
  // valid UTF-8 is text whatever control characters it holds (terminal logs, form feeds)
  if (invalid === 0) return { kind: "text", encoding: "utf-8", bom: 0 };
  if (controls / sample.length > CONTROL_BYTES_BINARY_RATIO) {
    return { kind: "binary", type: "binary data (control bytes, not valid UTF-8)" };
  }
  return { kind: "text", encoding: "latin1", bom: 0 };
}

async function detectType(sample: Buffer) {
  // file-type is loaded on first use: most reads are plain text and never need it.
  const { fileTypeFromBuffer } = await importModule<typeof import("file-type")>("file-type");
  return fileTypeFromBuffer(sample);
}

function isTextLike(mime: string): boolean {
  return mime.startsWith("text/") || mime === "application/xml";
}

/** Replacement characters the decoder had to insert, not counting a sequence cut by the sample's end. */
function countInvalidUtf8(sample: Buffer, more: boolean): number {
  // the common case, checked without decoding the sample into a string
  if (isUtf8(sample)) return 0;
  const text = new TextDecoder("utf-8").decode(sample, { stream: more });
  let n = 0;
  for (let i = text.indexOf("\uFFFD"); i >= 0; i = text.indexOf("\uFFFD", i + 1)) n++;
  // a genuine U+FFFD in the file (EF BF BD) is valid UTF-8: don't count it as an error
  let genuine = 0;
  for (let i = sample.indexOf("\uFFFD"); i >= 0; i = sample.indexOf("\uFFFD", i + 1)) genuine++;
  return n - genuine;
}

function countControlBytes(sample: Buffer): number {
  let n = 0;
  // an index loop: for-of makes an iterator result per byte, megabytes of garbage per sniff
  for (let i = 0; i < sample.length; i++) {
    const b = sample[i]!;
    // \t \n \v \f \r and ESC (terminal colours) occur in text; the other C0 controls and DEL do not
    if ((b < 0x20 && !(b >= 0x09 && b <= 0x0d) && b !== 0x1b) || b === 0x7f) n++;
  }
  return n;
}
