import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  countWithIndexOf,
  newlineCounter,
  simdCounterAvailable,
} from "../../src/tools/read/count-newlines.js";

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
});
