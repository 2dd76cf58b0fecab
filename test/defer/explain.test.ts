import { describe, expect, it } from "vitest";
import { type DeferConfig, explainPlan, type PlanEntry, planDeferral } from "../../src/defer/index.js";

const entries: PlanEntry[] = [
  { name: "read", mark: "never", markedBy: "built-in tool" },
  { name: "weather", mark: "always", markedBy: "defer.tools" },
  { name: "stocks" },
  { name: "mail" },
  { name: "calendar" },
  { name: "pinned" },
];
const config: DeferConfig = { mode: "threshold", threshold: 3, resident: ["pinned"] };

describe("why each tool of a plan is where it is", () => {
  it("gives every tool the reason its move carried, in plan order, with the threshold band", () => {
    const plan = planDeferral(entries, config);
    const { tools, band } = explainPlan(entries, config, plan);
    expect(tools.map((t) => t.name)).toEqual([...plan.resident, ...plan.deferred]);
    // from an empty state every tool moved, so each explanation can be checked against its move
    for (const t of tools) {
      const moved = plan.changes.find((c) => c.name === t.name);
      expect(t.reason, t.name).toBe(moved?.reason);
      expect(t.residency, t.name).toBe(moved?.to);
    }
    expect(tools.find((t) => t.name === "weather")).toMatchObject({
      residency: "deferred",
      mark: "always",
      markedBy: "defer.tools",
      reason: "marked defer: always (defer.tools)",
    });
    expect(tools.find((t) => t.name === "pinned")).toMatchObject({
      residency: "resident",
      mark: "never",
      markedBy: "defer.resident",
    });
    expect(tools.find((t) => t.name === "mail")?.reason).toMatch(/^over the threshold: 5 tools/);
    // weather (always) is not counted; tool_search is never counted
    expect(band).toEqual({
      mode: "threshold",
      count: 5,
      threshold: 3,
      releaseAt: 2,
      maxSchemaBytes: null,
      thresholdTokens: null,
      triggered: true,
    });
  });

  it("says a tool tool_search loaded is resident for that reason, and a turned-off mode for every tool", () => {
    const first = planDeferral(entries, config);
    const loaded = planDeferral(entries, config, { ...first.state, loaded: ["stocks"] });
    const stocks = explainPlan(entries, config, loaded).tools.find((t) => t.name === "stocks");
    expect(stocks).toMatchObject({ residency: "resident", loaded: true, reason: "loaded by tool_search" });

    const off = { ...config, mode: "off" as const };
    const plan = planDeferral(entries, off);
    const explained = explainPlan(entries, off, plan);
    expect(explained.tools.every((t) => t.residency === "resident" && t.reason === "defer.mode is off")).toBe(
      true,
    );
    expect(explained.band.count).toBe(6);
    expect(explained.band.triggered).toBe(false);
  });
});
