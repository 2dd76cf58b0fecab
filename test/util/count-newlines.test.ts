import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  countNewlinesIn,
  countWithIndexOf,
  newlineCounter,
  simdCounterAvailable,
} from "../../src/util/count-newlines.js";

describe("newline counter", () => {
  it("runs the SIMD module on this Node", () => {
    expect(simdCounterAvailable()).toBe(true);
  });

  it("counts exactly what an indexOf loop counts, over any range of either buffer", () => {
    const counter = newlineCounter();
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 3000 }),
        fc.nat(200),
        fc.nat(200),
        fc.integer({ min: 0, max: 1 }),
        (bytes, a, b, which) => {
          const buf = counter.buffers[which]!;
          // dense newlines: map a third of the bytes to 0x0A
          const data = Buffer.from(bytes.map((x) => (x % 3 === 0 ? 10 : x)));
          data.copy(buf, a);
          const from = a;
          const to = Math.min(a + data.length + b, buf.length);
          expect(counter.count(buf, from, to)).toBe(countWithIndexOf(buf, from, to));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("counts any buffer, small or larger than a scan buffer, as an indexOf loop does", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_300_000 }),
        fc.integer({ min: 1, max: 200 }),
        fc.nat(7),
        (size, every, offset) => {
          // a view at an odd offset into a larger ArrayBuffer, as chunks from streams often are
          const backing = new Uint8Array(size + offset);
          for (let i = 0; i < size; i++) backing[offset + i] = i % every === 0 ? 10 : 97;
          const view = backing.subarray(offset);
          const expected = countWithIndexOf(Buffer.from(view), 0, size);
          expect(countNewlinesIn(view)).toBe(expected);
          expect(countNewlinesIn(Buffer.from(view))).toBe(expected);
        },
      ),
      { numRuns: 40 },
    );
  });
});
