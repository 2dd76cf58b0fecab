import { open } from "node:fs/promises";

/** First read; most SKILL.md files fit whole, and a frontmatter nearly always does. */
const FIRST_CHUNK = 16 * 1024;
/** A frontmatter larger than this is treated as never closed. */
export const FRONTMATTER_MAX_BYTES = 256 * 1024;

export type Head = { ok: true; text: string; complete: boolean } | { ok: false; error: string };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a skill file only as far as its frontmatter: a 10 MB SKILL.md costs one small read.
 * Binary content (a NUL byte) and invalid UTF-8 are reported rather than parsed.
 */
export async function readHead(file: string): Promise<Head> {
  const handle = await open(file, "r");
  try {
    let buf = Buffer.alloc(FIRST_CHUNK);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, length, buf.length - length, length);
      length += bytesRead;
      const eof = bytesRead === 0 || length < buf.length;
      const view = buf.subarray(0, length);
      if (view.includes(0)) {
        return {
          ok: false,
          error: "file: line 1: binary content (a NUL byte); a skill file must be UTF-8 text",
        };
      }
      if (eof || !opensFrontmatter(view) || frontmatterClosed(view) || length >= FRONTMATTER_MAX_BYTES) {
        const text = decode(view, !eof);
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
    await handle.close();
  }
}

/** Starts with `---` (after an optional BOM): otherwise there is no frontmatter to read on for. */
function opensFrontmatter(view: Buffer): boolean {
  const start = view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf ? 3 : 0;
  return view.toString("latin1", start, start + 3) === "---";
}

/** The frontmatter has closed when a second `---` line starts after the first line. */
function frontmatterClosed(view: Buffer): boolean {
  const first = view.indexOf(10);
  if (first === -1) return false;
  let at = view.indexOf("\n---", first - 1);
  while (at !== -1) {
    const after = view[at + 4];
    if (after === undefined) return false;
    if (after === 10 || after === 13 || after === 32 || after === 9) return true;
    at = view.indexOf("\n---", at + 1);
  }
  return false;
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
