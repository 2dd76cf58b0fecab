import { describe, expect, it } from "vitest";
import { decorateTools, deferredHint, markDeferred } from "../../src/defer/native.js";
import { planDeferral, TOOL_SEARCH_NAME } from "../../src/defer/plan.js";

const plan = planDeferral(
  ["alpha", "beta", "gamma"].map((name) => ({ name })),
  { mode: "allowlist", threshold: 40, resident: ["alpha"] },
);
const wire = (name: string) => ({
  name,
  description: `${name} does things`,
  input_schema: { type: "object" },
});

describe("native deferred loading", () => {
  it("anthropic: defer_loading on deferred tools, its tool search tool in place of ours, beta header", () => {
    const list = decorateTools("anthropic", plan, wire);
    expect(list.native).toBe(true);
    expect(list.tools).toEqual([
      wire("alpha"),
      { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
      { ...wire("beta"), defer_loading: true },
      { ...wire("gamma"), defer_loading: true },
    ]);
    expect(list.headers).toEqual({ "anthropic-beta": "advanced-tool-use-2025-11-20" });
    expect(decorateTools("anthropic", plan, wire, { variant: "regex" }).tools[1]).toEqual({
      type: "tool_search_tool_regex_20251119",
      name: "tool_search_tool_regex",
    });
  });

  it("openai-responses: a tool_search tool plus defer_loading functions", () => {
    const fn = (name: string) => ({
      type: "function",
      name,
      description: "d",
      parameters: { type: "object" },
    });
    const list = decorateTools("openai-responses", plan, fn);
    expect(list.tools).toEqual([
      fn("alpha"),
      { type: "tool_search" },
      { ...fn("beta"), defer_loading: true },
      { ...fn("gamma"), defer_loading: true },
    ]);
    expect(list.headers).toEqual({});
  });

  it("elsewhere (or native off): client-side search, deferred tools by name only", () => {
    for (const [provider, opts] of [
      ["openai-chat", {}],
      ["gemini", {}],
      ["mcp", {}],
      ["anthropic", { native: false }],
    ] as const) {
      const rendered: string[] = [];
      const list = decorateTools(
        provider,
        plan,
        (n) => {
          rendered.push(n);
          return wire(n);
        },
        opts,
      );
      expect(list.native).toBe(false);
      expect(rendered).toEqual(["alpha", TOOL_SEARCH_NAME]);
      expect(list.hint).toBe(deferredHint(["beta", "gamma"]));
      expect(JSON.stringify(list.tools)).not.toContain("defer_loading");
    }
  });

  it("nothing deferred: the list is unchanged and carries no hint", () => {
    const none = planDeferral([{ name: "alpha" }], { mode: "off", threshold: 40, resident: [] });
    const list = decorateTools("anthropic", none, wire);
    expect(list).toEqual({ tools: [wire("alpha")], deferred: [], native: false, headers: {}, hint: "" });
  });

  it("markDeferred copies, never mutates", () => {
    const t = wire("x");
    expect(markDeferred(t)).toEqual({ ...t, defer_loading: true });
    expect(t).not.toHaveProperty("defer_loading");
  });
});
