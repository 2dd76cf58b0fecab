import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GLOBAL_LAYER, nameMatcher, Registry } from "../../src/register/index.js";

type E = { name: string; origin: string };

const layerNames = ["L1", "L2", "L3"];
const entryName = fc.constantFrom("a", "b", "c", "d", "e", "f", "read", "write");
const providerSpec = fc.record({
  layer: fc.constantFrom(GLOBAL_LAYER, ...layerNames),
  rank: fc.integer({ min: 0, max: 3 }),
  names: fc.uniqueArray(entryName, { maxLength: 6 }),
});
const world = fc.record({
  providers: fc.array(providerSpec, { maxLength: 8 }),
  restrictions: fc.dictionary(
    fc.constantFrom(...layerNames),
    fc.record({
      deny: fc.uniqueArray(entryName, { maxLength: 3 }),
      allow: fc.option(fc.uniqueArray(entryName), { nil: undefined }),
    }),
  ),
  chain: fc.shuffledSubarray(layerNames),
});
type World = typeof world extends fc.Arbitrary<infer T> ? T : never;

function build(w: World): Registry<E> {
  const r = new Registry<E>();
  w.providers.forEach((p, i) => {
    const name = `p${i}`;
    r.register(p.layer, {
      name,
      rank: p.rank,
      enumerate: () => p.names.map((n) => ({ name: n, origin: `${p.layer}/${name}` })),
    });
  });
  for (const [layer, res] of Object.entries(w.restrictions)) {
    r.restrict(layer, res.allow ? { deny: res.deny, allow: res.allow } : { deny: res.deny });
  }
  return r;
}

const view = async (r: Registry<E>, chain: string[]) => {
  const s = await r.snapshot(chain);
  return JSON.stringify({ e: s.entries.map((x) => [x.name, x.entry.origin]), s: s.shadowed, w: s.withheld });
};

describe("registry properties", () => {
  it("merging is deterministic, and stable when the same content is registered again", async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        expect(await view(build(w), w.chain)).toBe(await view(build(w), w.chain));
      }),
    );
  });

  it("the nearest layer that has a name wins it", async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const snap = await build({ ...w, restrictions: {} }).snapshot(w.chain);
        for (const e of snap.entries) {
          const order = [...w.chain, GLOBAL_LAYER];
          const nearest = order.find((l) =>
            w.providers.some((p) => p.layer === l && (p.names as string[]).includes(e.name)),
          );
          expect(e.layer).toBe(nearest);
        }
      }),
    );
  });

  it("a restriction never lets a denied name through from a farther layer", async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const snap = await build(w).snapshot(w.chain);
        const order = [...w.chain].reverse(); // farthest scope first
        for (const e of snap.entries) {
          // every restricting layer nearer than the entry's own layer must allow the name
          const from = e.layer === GLOBAL_LAYER ? 0 : order.indexOf(e.layer) + 1;
          for (const layer of order.slice(from)) {
            const res = w.restrictions[layer];
            if (!res) continue;
            expect(nameMatcher(res.deny)(e.name)).toBe(false);
            if (res.allow) expect(nameMatcher(res.allow)(e.name)).toBe(true);
          }
        }
      }),
    );
  });
});
