import { describe, expect, it } from "vitest";
import type { ToolContext } from "../../src/declare/types.js";
import { DeferSession } from "../../src/defer/session.js";
import {
  renderToolSearch,
  TOOL_SEARCH_DESCRIPTION,
  TOOL_SEARCH_NATIVE_DESCRIPTION,
  toolSearchTool,
} from "../../src/defer/tool-search.js";

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

  it("says what is true of each form: loaded for the next turn and listed, or loaded by the provider now", async () => {
    const { session, tool } = setup();
    expect(tool.description).toBe(TOOL_SEARCH_DESCRIPTION);
    const own = await tool.host.execute({ query: "price of AAPL stock", limit: 1 }, ctx);
    expect(renderToolSearch(own)).toMatch(
      /^Matching tools, best first \(callable from the next turn\):\n- stock_quote \(1\.00\).*\nLoaded now: stock_quote\.$/s,
    );
    // ranking only (the provider's client-run search): nothing joins the session, the text says call now
    const ranking = toolSearchTool(session, () => "", { loads: false });
    expect(ranking.description).toBe(TOOL_SEARCH_NATIVE_DESCRIPTION);
    const found = await ranking.host.execute({ query: "weather forecast" }, ctx);
    expect(found.loaded).toEqual([]);
    expect(session.loaded).toEqual(["stock_quote"]);
    const text = String(ranking.host.output.render(found));
    expect(text).toMatch(/^Matching tools, best first \(loaded: call them now\):\n- weather_forecast \(/);
    expect(text).not.toMatch(/next turn|Loaded now/);
  });
});
