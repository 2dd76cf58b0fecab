import fc from "fast-check";
import { expect } from "vitest";

/** One page as the model gets it: the text and the offset the result says to read on from. */
export interface PageResult {
  text: string;
  nextOffset?: number | undefined;
  isError?: boolean | undefined;
}

export interface PageLimits {
  inlineMaxBytes: number;
  lineMaxChars: number;
}

const MARKER = / … \[line cut: (\d+) more bytes, (\d+) in all\]$/;

/**
 * Pages through a file from line 1 by following nextOffset, as a model would, and checks what it
 * was shown against the file's lines: every line appears once, in order, whole or cut once with a
 * marker that gives its true remainder; each page fits the limits; nothing else cut it.
 */
export async function followPages(
  lines: readonly string[],
  limits: PageLimits,
  read: (offset: number) => Promise<PageResult>,
): Promise<number> {
  let offset = 1;
  let expected = 1;
  let pages = 0;
  for (;;) {
    const page = await read(offset);
    pages++;
    expect(page.isError, page.text).toBeFalsy();
    expect(Buffer.byteLength(page.text)).toBeLessThanOrEqual(limits.inlineMaxBytes);
    expect(page.text).not.toMatch(/more characters\]|\[output cut/);
    const rows = page.text.split("\n");
    const footerAt = rows.findIndex((r) => !/^\d+\t/.test(r));
    const body = footerAt < 0 ? rows : rows.slice(0, footerAt);
    for (const row of body) {
      expect(row.length, "a row fits results.lineMaxChars").toBeLessThanOrEqual(limits.lineMaxChars);
      const tab = row.indexOf("\t");
      const n = Number(row.slice(0, tab));
      expect(n, "rows follow each other").toBe(expected);
      const text = row.slice(tab + 1);
      const original = lines[n - 1]!;
      const cut = MARKER.exec(text);
      if (cut) {
        const shown = text.slice(0, cut.index);
        expect(original.startsWith(shown), `line ${n} shows its own start`).toBe(true);
        expect(Number(cut[2])).toBe(Buffer.byteLength(original));
        expect(Number(cut[1]), `line ${n}: the true remainder`).toBe(
          Buffer.byteLength(original) - Buffer.byteLength(shown),
        );
      } else {
        expect(text, `line ${n}`).toBe(original);
      }
      expected++;
    }
    expect(footerOffset(page.text), "the footer names the same offset").toBe(page.nextOffset);
    if (page.nextOffset === undefined) break;
    expect(page.nextOffset, "nextOffset is the first line not shown").toBe(expected);
    offset = page.nextOffset;
  }
  expect(expected - 1, "every line was shown").toBe(lines.length);
  return pages;
}

/** The offset a page's footer says to read on from (what a model sees), if any. */
export function footerOffset(text: string): number | undefined {
  const m = /read again with offset=(\d+)\)$/m.exec(text);
  return m ? Number(m[1]) : undefined;
}

// Line text: ASCII, two-, three- and four-byte characters, tabs; never a newline or a CR.
const chars = fc.constantFrom("a", "b", " ", "\t", "é", "€", "😀", "x", "{", "ü");
const lineArb = fc.oneof(
  { weight: 5, arbitrary: fc.array(chars, { maxLength: 80 }).map((a) => a.join("")) },
  { weight: 1, arbitrary: fc.constant("") },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.array(chars, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1990, max: 6000 }))
      .map(([unit, n]) =>
        unit
          .join("")
          .repeat(Math.ceil(n / unit.length))
          .slice(0, n),
      )
      .map((s) => (/[\uD800-\uDBFF]$/.test(s) ? s.slice(0, -1) : s)),
  },
);

/** A text file as lines plus how they end: random lengths (0 and over 2,000 characters), CRLF, multi-byte. */
export const textFileArb = fc.record({
  lines: fc.array(lineArb, { minLength: 1, maxLength: 120 }),
  crlf: fc.array(fc.boolean(), { maxLength: 120 }),
  trailing: fc.boolean(),
});

export function fileBytes(f: { lines: string[]; crlf: boolean[]; trailing: boolean }): Buffer {
  // the first line is plain text so that no random prefix reads as a binary format's magic number
  const lines = ["text", ...f.lines];
  return Buffer.from(
    lines.map((l, i) => l + (i < lines.length - 1 || f.trailing ? (f.crlf[i] ? "\r\n" : "\n") : "")).join(""),
    "utf8",
  );
}

/** The lines a reader shows for a file's bytes (CR of a CRLF dropped). */
export function fileLines(bytes: Buffer): string[] {
  const text = bytes.toString("utf8");
  const parts = text.split("\n");
  if (text.endsWith("\n")) parts.pop();
  return parts.map((p) => (p.endsWith("\r") ? p.slice(0, -1) : p));
}

/** The text blocks of a result (MCP, AI SDK or host shape) joined, as a model reads them. */
export function resultText(result: object): string {
  return (((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>)
    .filter((b) => b.type === "text")
    .map((b) => b.text ?? "")
    .join("\n");
}
