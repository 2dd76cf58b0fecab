// An unchanged tool set with deferral on is not planned again each turn: the last plan is reused
// while the visible tools, the defer.* keys and the loaded set are the ones it was made from.
// Any of those changing must plan again. (The marks are read into the entries, made again
// whenever the visible list is new: a configuration change makes a new one.)
import { describe, expect, it } from "vitest";
import { SessionDeferral } from "../../src/assemble/deferral.js";
import type { MarkRules } from "../../src/assemble/marks.js";
import type { VisibleTool } from "../../src/assemble/visibility.js";
import { defineTool } from "../../src/declare/index.js";

const visible: VisibleTool[] = Array.from({ length: 30 }, (_, i) => ({
  tool: defineTool({
    name: `t${i}`,
    description: `tool ${i} does a thing`,
    parameters: { type: "object", properties: {} },
    output: { schema: { type: "string" }, render: (v: string) => v },
    execute: () => "",
  }),
  namespace: "test",
  provider: "test",
}));
const marks: MarkRules = { tools: {}, providers: new Map() };
const base = {
  mode: "threshold" as const,
  threshold: 10,
  maxSchemaBytes: null,
  thresholdTokens: null,
  resident: [],
  marks,
};

describe("a deferral plan reused while nothing it read changed", () => {
  it("the same tools and keys give the same plan; a key, the pins or a load plan again", () => {
    const d = new SessionDeferral();
    const first = d.plan(visible, base);
    expect(first.plan.deferred).toHaveLength(30);
    // a new config object with the same values (as each turn builds one): reused
    expect(d.plan(visible, { ...base, resident: [] })).toBe(first);
    const higher = d.plan(visible, { ...base, threshold: 100 });
    expect(higher).not.toBe(first);
    expect(higher.plan.deferred).toEqual([]);
    const back = d.plan(visible, base);
    expect(back.plan.deferred).toHaveLength(30);
    const pinned = d.plan(visible, { ...base, resident: ["t3"] });
    expect(pinned.plan.resident).toContain("t3");
    // a tool loaded by tool_search makes the next turn plan again (it joins the resident tools)
    expect(pinned).toBe(d.plan(visible, { ...base, resident: ["t3"] }));
    expect(d.load(["t7"])).toEqual(["t7"]);
    const loaded = d.plan(visible, { ...base, resident: ["t3"] });
    expect(loaded).not.toBe(pinned);
    expect(loaded.plan.loaded).toEqual(["t7"]);
    expect(loaded.plan.resident).toContain("t7");
  });
});
