import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Bm25fIndex } from "../../src/defer/search/bm25f.js";
import type { SearchEntry } from "../../src/defer/search/entry.js";

const WORDS = [
  "read",
  "file",
  "weather",
  "city",
  "send",
  "email",
  "ticket",
  "status",
  "convert",
  "currency",
  "list",
  "issue",
];
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((w) => w.join(" "));
const entry = fc.record({
  name: fc.constantFrom("a_tool", "bTool", "c.tool", "d_tool", "e", "f_g"),
  description: text,
  params: text,
});

describe("incremental index (property)", () => {
  it("after any sequence of syncs, ranks exactly like an index built from scratch", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(entry, { maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        text,
        (rounds, query) => {
          const incremental = new Bm25fIndex();
          let last: SearchEntry[] = [];
          for (const round of rounds) {
            const unique = [...new Map(round.map((e) => [e.name, e])).values()];
            incremental.sync(unique);
            last = unique;
          }
          const scratch = new Bm25fIndex();
          scratch.sync(last);
          expect(incremental.search(query, 10)).toEqual(scratch.search(query, 10));
          expect(incremental.names().sort()).toEqual(last.map((e) => e.name).sort());
        },
      ),
      { numRuns: 200 },
    );
  });
});
