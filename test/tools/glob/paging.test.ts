import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TopK } from "../../../src/tools/glob/top-k.js";
import { builtinFileTools } from "../../../src/tools/index.js";
import { comparePaths } from "../../../src/tools/search/order.js";
import { testHost, textOf } from "../../helpers/host.js";
import { tempDir } from "../../helpers/tmp.js";

// glob lists newest first, ties by path, and pages: following nextOffset from 0 to the end lists
// every file exactly once, in that order, each page within the host's limits.

const DIRS = ["", "a/", "a.b/", "a/b/", "z/"];
const file = fc.tuple(
  fc.constantFrom(...DIRS),
  fc.stringMatching(/^[a-c][a-c.é-]{0,5}$/),
  // few distinct times, so ties are common
  fc.integer({ min: 0, max: 4 }),
);

describe("glob pages through the host: every file exactly once, newest first", () => {
  it("property over random trees, times, page sizes and limits", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(file, { minLength: 0, maxLength: 25, selector: ([d, n]) => `${d}${n}` }),
        fc.option(fc.integer({ min: 0, max: 7 }), { nil: undefined }),
        fc.integer({ min: 400, max: 3000 }),
        async (files, headLimit, inline) => {
          const ws = tempDir("tp-glob-paging-");
          mkdirSync(path.join(ws, ".git"));
          const names = files.map(([dir, name, t]) => ({ name: `${dir}${name}.txt`, t }));
          for (const f of names) {
            mkdirSync(path.dirname(path.join(ws, f.name)), { recursive: true });
            writeFileSync(path.join(ws, f.name), "");
            const time = 1_700_000_000 + f.t * 0.25;
            utimesSync(path.join(ws, f.name), time, time);
          }
          const { host } = testHost(builtinFileTools(), {
            workspace: ws,
            config: { "results.inlineMaxBytes": inline },
          });
          const seen: string[] = [];
          let offset: number | undefined = 0;
          for (let n = 0; offset !== undefined; n++) {
            expect(n).toBeLessThan(200);
            const r = await host.call({
              tool: "glob",
              args: {
                pattern: "*.txt",
                offset,
                ...(headLimit === undefined ? {} : { head_limit: headLimit }),
              },
            });
            const text = textOf(r);
            expect(r.isError, text).toBe(false);
            expect(Buffer.byteLength(text)).toBeLessThanOrEqual(inline);
            expect(r.spillPath).toBeUndefined();
            const footer = /offset=(\d+)\)$/m.exec(text);
            expect(footer ? Number(footer[1]) : undefined).toBe(r.nextOffset);
            if (names.length === 0) {
              expect(text).toBe('No files match "*.txt".');
              break;
            }
            seen.push(...text.split("\n").filter((l) => !l.startsWith("(")));
            if (r.nextOffset !== undefined) expect(r.nextOffset).toBeGreaterThan(offset);
            offset = r.nextOffset;
          }
          const expected = [...names]
            .sort((a, b) => b.t - a.t || comparePaths(a.name, b.name))
            .map((f) => f.name);
          expect(seen).toEqual(expected);
        },
      ),
      { numRuns: Number(process.env.PROP_RUNS ?? 30) },
    );
  });
});

describe("TopK", () => {
  it("keeps the first k of any stream in order, as a full sort would", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.string())), fc.nat(12), (items, k) => {
        const order = (a: [number, string], b: [number, string]) =>
          b[0] - a[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
        const top = new TopK(k, order);
        for (const item of items) top.offer(item);
        expect(top.seen).toBe(items.length);
        expect(top.sorted()).toEqual([...items].sort(order).slice(0, k));
      }),
      { numRuns: 300 },
    );
  });
});
