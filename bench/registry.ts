import { GLOBAL_LAYER, Registry } from "../src/register/index.js";
import { emit, median, peakRssMiB, round, timeRuns } from "./lib.js";

/** Merging 10,000 entries over a three-layer chain, cold (after an invalidation) and cached. */
async function main() {
  type E = { name: string };
  const registry = new Registry<E>();
  const names = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ name: `${prefix}_${i}` }));
  for (let p = 0; p < 10; p++) {
    const entries = names(`tool${p}`, 1000);
    registry.register(GLOBAL_LAYER, { name: `p${p}`, rank: p, enumerate: () => entries });
  }
  const preset = names("tool3", 200);
  registry.register("preset:review", { name: "review", enumerate: () => preset });
  registry.register("session-1", { name: "s", enumerate: () => names("tool5", 50) });
  const chain = ["session-1", "preset:review"];
  const cold = await timeRuns(async () => {
    registry.invalidate("runtime");
    await registry.snapshot(chain);
  }, 15);
  const warm = await timeRuns(() => registry.snapshot(chain), 200);
  // baseline: a plain Map merge of the same entries, no layers or shadow records
  const all = [...Array.from({ length: 10 }, (_, p) => names(`tool${p}`, 1000)).flat(), ...preset];
  const base = await timeRuns(() => {
    const m = new Map<string, E>();
    for (const e of all) m.set(e.name, e);
    return m;
  }, 15);
  emit({
    bench: "registry",
    figures: [
      { name: "snapshot 10,000 entries, 3 layers (cold) median", value: round(median(cold)), unit: "ms" },
      { name: "cold snapshot / plain Map merge", value: round(median(cold) / median(base), 1), unit: "x" },
      { name: "cached snapshot median", value: round(median(warm), 4), unit: "ms" },
      { name: "peak RSS", value: round(peakRssMiB(), 1), unit: "MiB" },
    ],
  });
}

await main();
