import { describe, expect, it } from "vitest";
import type { ToolContext } from "../../src/declare/types.js";
import { DeferSession } from "../../src/defer/session.js";
import { renderToolSearch, toolSearchTool } from "../../src/defer/tool-search.js";

const entries = [
  { name: "weather_forecast", description: "Get the weather forecast for a city." },
  { name: "stock_quote", description: "Get the latest price of a stock ticker." },
  { name: "translate_text", description: "Translate text between languages." },
];
const ctx = { signal: new AbortController().signal, cwd: "/", workspace: "/", config: {} } as ToolContext;

function setup() {
  const session = new DeferSession();
  session.plan(entries, { mode: "allowlist", threshold: 40, resident: [] });
  const describe = (n: string) => entries.find((e) => e.name === n)?.description ?? "";
  return { session, tool: toolSearchTool(session, describe) };
}

describe("tool_search", () => {
  it("returns a canonical value, validated by its output schema, and loads the hits", async () => {
    const { session, tool } = setup();
    const args = tool.validateInput({ query: "price of AAPL stock" });
    expect(args.ok).toBe(true);
    const value = await tool.host.execute(args.ok ? args.value : ({} as never), ctx);
    expect(tool.validateOutput(value).ok).toBe(true);
    expect(value.mode).toBe("query");
    expect(value.results[0]).toMatchObject({
      name: "stock_quote",
      description: "Get the latest price of a stock ticker.",
    });
    expect(value.loaded).toContain("stock_quote");
    expect(
      session
        .plan(entries, { mode: "allowlist", threshold: 40, resident: [] })
        .resident.at(-value.loaded.length),
    ).toBe(value.loaded[0]);
    expect(renderToolSearch(value)).toContain("- stock_quote (");
  });

  it("regex mode", async () => {
    const { tool } = setup();
    const value = await tool.host.execute({ pattern: "^trans" }, ctx);
    expect(value.results.map((r) => r.name)).toEqual(["translate_text"]);
    expect(value.mode).toBe("pattern");
  });

  it("needs exactly one of query or pattern, and says so", async () => {
    const { tool } = setup();
    await expect(async () => tool.host.execute({}, ctx)).rejects.toThrow(/exactly one of query/);
    await expect(async () => tool.host.execute({ query: "a", pattern: "b" }, ctx)).rejects.toThrow(
      /exactly one/,
    );
  });

  it("no match renders as a plain sentence", () => {
    expect(renderToolSearch({ mode: "query", results: [], loaded: [] })).toMatch(/No deferred tool matches/);
  });
});
