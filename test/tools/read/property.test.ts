import { writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ReadValue, readPath } from "../../../src/tools/read/tool.js";
import { tempDir } from "../../helpers/tmp.js";

const dir = tempDir("tp-readprop-");
const ctx = { cwd: dir, workspace: dir, config: {} };

/** Pages through a file with `limit` and puts the bytes back together from the canonical values. */
async function reconstruct(name: string, limit: number, encoding: BufferEncoding): Promise<Buffer> {
  const pages: ReadValue[] = [];
  let offset: number | undefined = 1;
  while (offset !== undefined) {
    const v: ReadValue = await readPath({ path: name, offset, limit }, ctx);
    pages.push(v);
    offset = v.kind === "file" ? v.nextOffset : undefined;
  }
  let out = "";
  for (const v of pages) {
    if (v.kind !== "file") throw new Error("expected text");
    expect(v.cutLines).toEqual([]);
    v.lines.forEach((line, i) => {
      const n = v.offset + i;
      const last = v.nextOffset === undefined && i === v.lines.length - 1;
      out += line + (last && !v.endsWithNewline ? "" : v.crlfLines.includes(n) ? "\r\n" : "\n");
    });
  }
  return Buffer.from(out, encoding);
}

// Text lines: any code point but newline and NUL (a NUL makes a file binary by design).
const lineArb = fc.string({ unit: "binary", maxLength: 120 }).map((s) => s.replace(/[\n\0]/g, "_"));
const fileArb = fc.record({
  lines: fc.array(lineArb, { maxLength: 60 }),
  crlf: fc.array(fc.boolean(), { maxLength: 60 }),
  trailing: fc.boolean(),
  limit: fc.integer({ min: 1, max: 25 }),
});

function assemble(f: { lines: string[]; crlf: boolean[]; trailing: boolean }): string {
  // the first line is fixed text so that no random prefix looks like a known binary magic number
  const lines = ["text", ...f.lines];
  return lines
    .map((l, i) => l + (i < lines.length - 1 || f.trailing ? (f.crlf[i] ? "\r\n" : "\n") : ""))
    .join("");
}

describe("read: paging reconstructs any text file exactly", () => {
  let n = 0;
  it("UTF-8", async () => {
    await fc.assert(
      fc.asyncProperty(fileArb, async (f) => {
        const name = `u${n++}.txt`;
        const content = Buffer.from(assemble(f), "utf8");
        writeFileSync(path.join(dir, name), content);
        expect((await reconstruct(name, f.limit, "utf8")).equals(content)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("UTF-16 LE with a BOM", async () => {
    await fc.assert(
      fc.asyncProperty(fileArb, async (f) => {
        const name = `w${n++}.txt`;
        const body = Buffer.from(assemble(f), "utf16le");
        writeFileSync(path.join(dir, name), Buffer.concat([Buffer.from([0xff, 0xfe]), body]));
        expect((await reconstruct(name, f.limit, "utf16le")).equals(body)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe("read: random offsets over a multi-chunk file agree with a plain split", () => {
  // lines of mixed length (some empty, some spanning chunk boundaries) over ~1.5 MB
  const lines: string[] = [];
  let seed = 7;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let i = 0; i < 30_000; i++) {
    const len = rnd() < 0.01 ? 1900 : Math.floor(rnd() * 80);
    lines.push(`${i}:${"ab€".repeat(len / 3)}`);
  }
  writeFileSync(path.join(dir, "multi.txt"), `${lines.join("\n")}\n`);
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${lines.join("\r\n")}\r\n`, "utf16le")]);
  writeFileSync(path.join(dir, "multi16.txt"), le);

  for (const name of ["multi.txt", "multi16.txt"]) {
    it(name, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: lines.length }),
          fc.integer({ min: 1, max: 40 }),
          async (offset, limit) => {
            const v = await readPath({ path: name, offset, limit }, ctx);
            if (v.kind !== "file") throw new Error("expected text");
            const want = lines.slice(offset - 1, offset - 1 + limit);
            expect(v.lines.slice(0, want.length)).toEqual(want.slice(0, v.lines.length));
            expect(v.lines.length).toBe(Math.min(limit, lines.length - offset + 1));
          },
        ),
        { numRuns: 80 },
      );
      await expect(readPath({ path: name, offset: lines.length + 1 }, ctx)).rejects.toThrow(
        new RegExp(`has ${lines.length} lines`),
      );
    });
  }
});
