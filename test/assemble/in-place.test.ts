// A provider's tool changed in place (same name, same place: what an MCP server's list_changed
// with one edit brings) on a live plane: the catalog, the host's call and the visibility rules
// must all see the new tool, with deferral off (where the plan is kept) and on.
import { describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/index.js";
import { type AnyTool, defineTool } from "../../src/declare/index.js";
import { GLOBAL_LAYER } from "../../src/register/index.js";
import { tempProject } from "../helpers/tmp.js";

function tool(name: string, version: number): AnyTool {
  return defineTool({
    name,
    description: `${name} does its job, version ${version}`,
    parameters: { type: "object", properties: {} },
    output: { schema: { type: "string" }, render: (v: string) => v },
    execute: () => `${name} ran version ${version}`,
  });
}

const textOf = (r: { content: Array<{ type: string; text?: string }> }) =>
  r.content.map((c) => c.text ?? "").join("");

for (const mode of ["off", "threshold"] as const) {
  describe(`a tool changed in place, defer.mode=${mode}`, () => {
    it("the next catalog and call use the new tool; rules and disabled names still apply to it", async () => {
      const p = tempProject({});
      const plane = await Toolplane.open({
        cwd: p.repo,
        env: p.env,
        bundledSkills: null,
        set: [`defer.mode=${mode}`, "catalog.budget.chars=1000000"],
      });
      try {
        let tools = Array.from({ length: 60 }, (_, i) => tool(`t${i}`, 1));
        const handle = plane.tools.register(GLOBAL_LAYER, { name: "many", enumerate: () => tools });
        const host = plane.host();
        await plane.catalog("anthropic");
        for (const version of [2, 3]) {
          tools = tools.slice();
          tools[17] = tool("t17", version);
          handle.changed();
          const catalog = await plane.catalog("anthropic");
          const text = JSON.stringify(catalog);
          expect(text).toContain(`t17 does its job, version ${version}`);
          expect(text).not.toContain(`t17 does its job, version ${version - 1}`);
          if (mode === "threshold") await host.call({ tool: "tool_search", args: { query: "t17 job" } });
          const r = await host.call({ tool: "t17", args: {} });
          expect(r.isError, JSON.stringify(r)).toBe(false);
          expect(textOf(r)).toBe(`t17 ran version ${version}`);
        }
        // the rules that decide visibility are read again when they change
        plane.set("tools.disabled", ["t17"]);
        expect(JSON.stringify(await plane.catalog("anthropic"))).not.toContain("t17 does its job");
        expect((await host.call({ tool: "t17", args: {} })).isError).toBe(true);
        plane.set("tools.disabled", []);
        plane.set("permissions.rules", [{ effect: "deny", tool: "t18" }]);
        const afterRule = JSON.stringify(await plane.catalog("anthropic"));
        expect(afterRule).toContain("t17 does its job, version 3");
        expect(afterRule).not.toContain("t18 does its job");
      } finally {
        await plane.close();
      }
    });
  });
}

describe("a deferred tool changed in place, deferral on", () => {
  it("tool_search finds it by its new text (the plan is kept, the search index reads the change)", async () => {
    const p = tempProject({});
    const plane = await Toolplane.open({ cwd: p.repo, env: p.env, bundledSkills: null });
    try {
      let tools = Array.from({ length: 60 }, (_, i) => tool(`t${i}`, 1));
      const handle = plane.tools.register(GLOBAL_LAYER, { name: "many", enumerate: () => tools });
      const host = plane.host();
      const first = await plane.catalog("anthropic");
      expect(first.deferred).toContain("t17");
      const search = async (query: string) =>
        textOf(await host.call({ tool: "tool_search", args: { query } }));
      expect(await search("zebracorn")).not.toMatch(/\bt17\b/);
      tools = tools.slice();
      tools[17] = defineTool({
        name: "t17",
        description: "t17 now herds a zebracorn",
        parameters: { type: "object", properties: {} },
        output: { schema: { type: "string" }, render: (v: string) => v },
        execute: () => "t17 ran the new version",
      });
      handle.changed();
      const after = await plane.catalog("anthropic");
      expect(after.deferred).toEqual(first.deferred);
      expect(await search("zebracorn")).toMatch(/\bt17\b/);
      expect(textOf(await host.call({ tool: "t17", args: {} }))).toBe("t17 ran the new version");
    } finally {
      await plane.close();
    }
  });
});
