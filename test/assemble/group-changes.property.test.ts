import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupChanges } from "../../src/assemble/deferral.js";
import type { ResidencyChange } from "../../src/defer/plan.js";

// The report groups residency changes by (from, to, reason) in the order each group first
// appears, names in their order. The reference joins the three into one key, as the grouping did
// before it keyed by the pair and then the reason itself.
function reference(changes: readonly ResidencyChange[]) {
  const groups = new Map<string, { from: string; to: string; reason: string; names: string[] }>();
  for (const c of changes) {
    const key = JSON.stringify([c.from, c.to, c.reason]);
    let g = groups.get(key);
    if (!g) {
      g = { from: c.from, to: c.to, reason: c.reason, names: [] };
      groups.set(key, g);
    }
    g.names.push(c.name);
  }
  return [...groups.values()];
}

const residency = fc.constantFrom("resident" as const, "deferred" as const, "absent" as const);
const change = fc.record({
  name: fc.string({ maxLength: 6 }),
  from: residency,
  to: residency,
  // few reasons, so groups repeat and interleave; the same text may come as another string
  reason: fc.constantFrom("a", "b", "a>b", "", "defer.mode is off").map((r) => `${r}`),
});

describe("groupChanges", () => {
  it("property: the same groups, in the same order, as one key of all three", () => {
    fc.assert(
      fc.property(fc.array(change, { maxLength: 60 }), (changes) => {
        expect(groupChanges(changes)).toEqual(reference(changes));
      }),
      { numRuns: 500 },
    );
  });

  it("keeps a group apart when only the pair differs, even where a joined key could collide", () => {
    const moves = groupChanges([
      { name: "x", from: "absent", to: "resident", reason: "r" },
      { name: "y", from: "absent", to: "deferred", reason: "r" },
      { name: "z", from: "absent", to: "resident", reason: "r" },
    ]);
    expect(moves.map((m) => [m.to, m.names])).toEqual([
      ["resident", ["x", "z"]],
      ["deferred", ["y"]],
    ]);
  });
});
