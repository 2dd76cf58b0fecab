import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DeferConfig, type DeferState, EMPTY_DEFER_STATE, planDeferral } from "../../src/defer/plan.js";

// The first plan (nothing planned before) takes its own way: the changes come from the plan's
// lists rather than from a diff of two records, and its state's record is made on first read.
// Both are checked against the general way, which a previous state holding one tool that has
// since left forces (the same plan plus that tool's leaving).
const GONE = "zz_gone";
const mark = fc.constantFrom(undefined, "never" as const, "always" as const, "auto" as const);
const configArb = fc.record({
  mode: fc.constantFrom("threshold" as const, "allowlist" as const, "off" as const),
  threshold: fc.integer({ min: 0, max: 30 }),
  resident: fc.array(fc.constantFrom("t_1", "t_3", "constructor", "__proto__"), { maxLength: 3 }),
});

describe("the first plan", () => {
  it("property: its changes and state are the general diff's, less the tool that left", () => {
    fc.assert(
      fc.property(
        fc.array(mark, { maxLength: 40 }),
        fc.boolean(),
        configArb,
        (marks, protoNames, config: DeferConfig) => {
          const entries = marks.map((m, i) => ({
            name: protoNames && i < 2 ? ["constructor", "__proto__"][i]! : `t_${i}`,
            ...(m ? { mark: m } : {}),
          }));
          const first = planDeferral(entries, config, EMPTY_DEFER_STATE);
          const left: DeferState = { triggered: false, residency: { [GONE]: "resident" }, loaded: [] };
          const general = planDeferral(entries, config, left);
          expect(first.changes).toEqual(general.changes.filter((c) => c.name !== GONE));
          expect(first.resident).toEqual(general.resident);
          expect(first.deferred).toEqual(general.deferred);
          // the lazy record reads as the eager one, and survives JSON (a session kept on disk)
          expect({ ...first.state.residency }).toEqual({ ...general.state.residency });
          const kept = JSON.parse(JSON.stringify(first.state)) as DeferState;
          expect(kept.residency).toEqual({ ...general.state.residency });
          // and the next plan from it is the one from the eager state
          const again = planDeferral(entries.slice(1), config, first.state);
          const againEager = planDeferral(entries.slice(1), config, general.state);
          expect(again.changes).toEqual(againEager.changes);
          expect(again.resident).toEqual(againEager.resident);
        },
      ),
      { numRuns: 200 },
    );
  });
});
