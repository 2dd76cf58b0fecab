import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GLOBAL_LAYER, Registry, type Snapshot, snapshotPatch } from "../../src/register/index.js";

type E = { name: string; origin: string; v: number };

const layerNames = ["L1", "L2"];
const entryName = fc.constantFrom("a", "b", "c", "d", "e", "f");
const providerSpec = fc.record({
  layer: fc.constantFrom(GLOBAL_LAYER, ...layerNames),
  rank: fc.integer({ min: 0, max: 2 }),
  names: fc.uniqueArray(entryName, { maxLength: 5 }),
});
/** An edit to one provider: one entry changed in place, a new list of names, or a new rank. */
const edit = fc.record({
  provider: fc.nat(),
  kind: fc.constantFrom("in-place", "in-place", "in-place", "names", "rank"),
  at: fc.nat(),
  names: fc.uniqueArray(entryName, { maxLength: 5 }),
  rank: fc.integer({ min: 0, max: 2 }),
});
const world = fc.record({
  providers: fc.array(providerSpec, { minLength: 1, maxLength: 6 }),
  deny: fc.uniqueArray(entryName, { maxLength: 2 }),
  chain: fc.shuffledSubarray(layerNames),
  edits: fc.array(edit, { maxLength: 12 }),
});

interface Live {
  layer: string;
  rank: number;
  list: E[];
}

function registryOf(providers: Live[], deny: string[]) {
  const r = new Registry<E>();
  const handles = providers.map((p, i) =>
    r.register(p.layer, {
      name: `p${i}`,
      get rank() {
        return p.rank;
      },
      enumerate: () => p.list,
    }),
  );
  if (deny.length > 0) r.restrict("L1", { deny });
  return { r, handles };
}

/** Everything a reader can see of a snapshot, by value. */
function seen(s: Snapshot<E>, names: readonly string[]) {
  return {
    entries: s.entries.map((e) => [e.name, e.entry.origin, e.entry.v, e.provider, e.layer, e.rank]),
    get: names.map((n) => s.get(n)?.entry.v ?? null),
    shadowed: s.shadowed,
    withheld: s.withheld,
  };
}

describe("a merge patched from the last one (providers that changed entries in place)", () => {
  it("equals a merge in full of the same providers, after every edit", async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        let version = 0;
        const live: Live[] = w.providers.map((p, i) => ({
          layer: p.layer,
          rank: p.rank,
          list: p.names.map((n) => ({ name: n, origin: `p${i}`, v: version++ })),
        }));
        const { r, handles } = registryOf(live, w.deny);
        const names = ["a", "b", "c", "d", "e", "f"];
        let last = await r.snapshot(w.chain);
        for (const e of w.edits) {
          const k = e.provider % live.length;
          const p = live[k]!;
          if (e.kind === "in-place" && p.list.length > 0) {
            const at = e.at % p.list.length;
            p.list = p.list.slice();
            p.list[at] = { ...p.list[at]!, v: version++ };
          } else if (e.kind === "names") {
            p.list = e.names.map((n) => ({ name: n, origin: `p${k}`, v: version++ }));
          } else p.rank = e.rank;
          handles[k]!.changed();
          const now = await r.snapshot(w.chain);
          const full = await registryOf(live, w.deny).r.snapshot(w.chain);
          expect(seen(now, names)).toEqual(seen(full, names));
          // a patched snapshot says what it replaced, and every other entry is the last one's record
          const patch = snapshotPatch(now);
          if (patch) {
            expect(patch.base).toBe(last);
            const swapped = new Map(patch.replaced.map(([o, n]) => [n, o]));
            for (const [i, rec] of now.entries.entries())
              expect(swapped.get(rec) ?? rec).toBe(last.entries[i]);
          }
          last = now;
        }
      }),
      { numRuns: 300 },
    );
  });

  it("one entry changed in place among many is patched, not merged again", async () => {
    let list: E[] = Array.from({ length: 1000 }, (_, i) => ({ name: `t${i}`, origin: "p", v: 0 }));
    const r = new Registry<E>();
    const handle = r.register(GLOBAL_LAYER, { name: "p", enumerate: () => list });
    const before = await r.snapshot();
    expect(snapshotPatch(before)).toBeUndefined();
    list = list.slice();
    list[500] = { name: "t500", origin: "p", v: 1 };
    handle.changed();
    const after = await r.snapshot();
    const patch = snapshotPatch(after);
    expect(patch?.base).toBe(before);
    expect(patch?.replaced.map(([o, n]) => [o.entry.v, n.entry.v])).toEqual([[0, 1]]);
    expect(after.get("t500")?.entry.v).toBe(1);
    // the snapshot before is untouched
    expect(before.get("t500")?.entry.v).toBe(0);
    expect(before.entries[500]?.entry.v).toBe(0);
    // a rename is a new name set: merged in full
    list = list.slice();
    list[3] = { name: "renamed", origin: "p", v: 2 };
    handle.changed();
    const renamed = await r.snapshot();
    expect(snapshotPatch(renamed)).toBeUndefined();
    expect(renamed.get("t3")).toBeUndefined();
    expect(renamed.get("renamed")?.entry.v).toBe(2);
  });
});
