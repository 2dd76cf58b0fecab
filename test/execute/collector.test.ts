import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OutputCollector } from "../../src/execute/index.js";
import type { SpillWriter } from "../../src/execute/spill.js";

/** A spill writer that keeps what it is given, to compare with what was written. */
function memoryWriter() {
  const parts: Buffer[] = [];
  const writer = {
    path: "/mem/spill.txt",
    write: async (chunks: Buffer[]) => {
      for (const c of chunks) parts.push(Buffer.from(c));
    },
    commit: async () => "/mem/spill.txt",
    discard: async () => {},
  };
  return { writer: writer as unknown as SpillWriter, bytes: () => Buffer.concat(parts) };
}

describe("output collector (property)", () => {
  it("the spill file holds every byte in order; head, tail and counts match the output", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 3000 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 4000 }),
        fc.integer({ min: 1, max: 600 }),
        async (chunks, inline, preview) => {
          const mem = memoryWriter();
          const c = new OutputCollector({
            inlineMaxBytes: inline,
            previewBytes: preview,
            spillMaxBytes: Number.MAX_SAFE_INTEGER,
            openSpill: async () => mem.writer,
          });
          // a tool that does not await its writes still gets them in order
          await Promise.all(chunks.map((ch) => c.write(ch)));
          const out = await c.finish();
          const all = Buffer.concat(chunks.map((ch) => Buffer.from(ch)));
          expect(out.totalBytes).toBe(all.length);
          expect(out.newlines).toBe(all.filter((b) => b === 10).length);
          if (all.length <= inline) {
            expect(out.inline?.equals(all)).toBe(true);
            expect(out.spillPath).toBeUndefined();
          } else {
            expect(out.spillPath).toBe("/mem/spill.txt");
            expect(mem.bytes().equals(all)).toBe(true);
            expect(out.head.equals(all.subarray(0, preview))).toBe(true);
            expect(out.tail.equals(all.subarray(Math.max(0, all.length - preview)))).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a tool that does not spill keeps the first inline bytes and counts the rest", async () => {
    const c = new OutputCollector({ inlineMaxBytes: 10, previewBytes: 4, spillMaxBytes: 1e9 });
    await c.write("0123456789abcdef");
    await c.write("ghij");
    const out = await c.finish();
    expect(out).toMatchObject({ totalBytes: 20, dropped: true });
    expect(out.head.toString()).toBe("0123456789");
    expect(out.tail.toString()).toBe("ghij");
  });
});
