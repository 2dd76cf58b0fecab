import { closeSync, readSync } from "node:fs";
import { NotRegularFileError, openRegularSync } from "../util/regular-file.js";

/** First read; most SKILL.md files fit whole, and a frontmatter nearly always does. */
const FIRST_CHUNK = 16 * 1024;
/** A frontmatter larger than this is treated as never closed. */
export const FRONTMATTER_MAX_BYTES = 256 * 1024;

export type Head = { ok: true; text: string; complete: boolean } | { ok: false; error: string };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a skill file only as far as its frontmatter: a 10 MB SKILL.md costs one small read.
 * Binary content (a NUL byte) and invalid UTF-8 are reported rather than parsed.
 *
 * Synchronous on purpose: for thousands of small files one blocking open/read/close is several
 * times cheaper than three trips through libuv's thread pool; scanRoot yields to the event loop
 * between batches so a big scan does not hold it for long. The open is non-blocking and only a
 * regular file is read: a FIFO named SKILL.md would otherwise hang the scan (and every command).
 */
export function readHead(file: string): Head {
  let fd: number;
  try {
    fd = openRegularSync(file).fd;
  } catch (error) {
    if (error instanceof NotRegularFileError)
      return {
        ok: false,
        error: `file: is ${error.kind}, not a regular file; a skill file must be a plain file`,
      };
    throw error;
  }
  try {
    let buf = shared;
    let length = 0;
    for (;;) {
      const bytesRead = readSync(fd, buf, length, buf.length - length, length);
      length += bytesRead;
      const eof = bytesRead === 0 || length < buf.length;
      const view = buf.subarray(0, length);
      if (view.includes(0)) {
        return {
          ok: false,
          error: "file: line 1: binary content (a NUL byte); a skill file must be UTF-8 text",
        };
      }
      const end = frontmatterEnd(view);
      if (eof || end !== -1 || !opensFrontmatter(view) || length >= FRONTMATTER_MAX_BYTES) {
        // only the frontmatter is decoded: discovery never needs the body
        const text = decode(end === -1 ? view : view.subarray(0, end), end === -1 && !eof);
        if (text === undefined) {
          return { ok: false, error: "file: line 1: not valid UTF-8 text; save the file as UTF-8" };
        }
        return { ok: true, text, complete: eof };
      }
      const next = Buffer.alloc(Math.min(buf.length * 4, FRONTMATTER_MAX_BYTES));
      buf.copy(next, 0, 0, length);
      buf = next;
    }
  } finally {
    closeSync(fd);
  }
}

/** Reused for every first read (the text is decoded out of it before the next file). */
const shared = Buffer.alloc(FIRST_CHUNK);

/** Starts with `---` (after an optional BOM): otherwise there is no frontmatter to read on for. */
function opensFrontmatter(view: Buffer): boolean {
  const start = view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf ? 3 : 0;
  return view.toString("latin1", start, start + 3) === "---";
}

const CLOSE = Buffer.from("\n---");

/**
 * Byte offset just past the closing `---` line (a second `---` line after the first line), or
 * -1 while it has not been read yet.
 */
function frontmatterEnd(view: Buffer): number {
  const first = view.indexOf(10);
  if (first === -1) return -1;
  let at = view.indexOf(CLOSE, first - 1);
  while (at !== -1) {
    let i = at + 4;
    while (view[i] === 32 || view[i] === 9) i++;
    if (i >= view.length) return -1;
    if (view[i] === 10) return i + 1;
    if (view[i] === 13 && view[i + 1] === 10) return i + 2;
    if (view[i] === 13 && i + 1 >= view.length) return -1;
    at = view.indexOf(CLOSE, at + 1);
  }
  return -1;
}

/** Decodes UTF-8; when the read stopped mid-file, a character cut at the end is dropped. */
function decode(view: Buffer, partial: boolean): string | undefined {
  let end = view.length;
  if (partial) {
    // back up over at most 3 continuation bytes so a cut multi-byte character does not fail
    let back = 0;
    while (back < 3 && end - back - 1 >= 0 && (view[end - back - 1]! & 0xc0) === 0x80) back++;
    if (end - back - 1 >= 0 && view[end - back - 1]! >= 0xc0) end = end - back - 1;
  }
  try {
    return utf8.decode(view.subarray(0, end));
  } catch {
    return undefined;
  }
}
