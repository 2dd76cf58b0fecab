import { hash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/toolplane.js";
import { parameterSchemasBuiltCount } from "../../src/declare/index.js";
import type { AnyTool } from "../../src/declare/types.js";
import { TOOL_SEARCH_NAME } from "../../src/defer/index.js";
import { GLOBAL_LAYER } from "../../src/register/index.js";
import { type Catalog, DEFERRED_HEADER, type ProviderName } from "../../src/render/index.js";
import { CHECKERS } from "../helpers/provider-rules.js";
import { tempProject } from "../helpers/tmp.js";
import { simpleTool } from "../helpers/tools.js";

/** Tools with telling descriptions, so a query finds exactly one. */
const TOPICS = [
  "weather forecast for a city",
  "stock price quote for a ticker",
  "translate text between languages",
  "send an email message",
  "create a calendar event",
  "convert currency amounts",
  "look up a word in the dictionary",
  "resize an image file",
  "compress a folder into a zip archive",
  "query the flight schedule",
];

function manyTools(count: number): AnyTool[] {
  return Array.from({ length: count }, (_, i) =>
    simpleTool(
      `tool_${String(i).padStart(4, "0")}`,
      `Tool ${i}: ${TOPICS[i % TOPICS.length]} (variant ${i}).`,
    ),
  );
}

const planes: Toolplane[] = [];
afterEach(async () => {
  for (const plane of planes.splice(0)) await plane.close();
});

async function open(tools: AnyTool[], set: string[] = []): Promise<Toolplane> {
  const p = tempProject();
  const plane = await Toolplane.open({ cwd: p.repo, env: p.env, set, bundledSkills: null });
  plane.tools.register(GLOBAL_LAYER, { name: "many", enumerate: () => tools });
  planes.push(plane);
  return plane;
}

const nameOf = (wire: unknown): string => {
  const t = wire as { name?: string; function?: { name: string } };
  return t.function?.name ?? t.name ?? "";
};
const names = (c: Catalog) => c.tools.map(nameOf);
const digest = (tools: unknown[]) => hash("sha256", JSON.stringify(tools), "hex");
const moves = (c: Catalog) => c.report.deferral?.changes ?? [];

describe("Toolplane.catalog defers per defer.*", () => {
  it("60 tools over a threshold of 40: names in the system text, tool_search resident, changes reported", async () => {
    const plane = await open(manyTools(60), ["defer.threshold=40", 'defer.resident=["read"]']);
    const c = await plane.catalog("openai-chat");
    expect(names(c)).toEqual(["read", TOOL_SEARCH_NAME]);
    expect(c.deferred).toHaveLength(67); // 60 + grep, glob, edit, write, bash, skill, ticket_status
    expect(c.deferred).toContain("tool_0042");
    expect(c.system).toContain(`${DEFERRED_HEADER}\n`);
    expect(c.system).toContain("tool_0042");
    expect(c.system).not.toContain("weather"); // names only: no descriptions, no search hints
    expect(c.report.deferral).toMatchObject({ form: "names", loaded: [] });
    expect(c.report.deferral?.trigger).toMatch(/over the threshold: 68 tools \(threshold 40\)/);
    const deferredMove = moves(c).find((m) => m.to === "deferred");
    expect(deferredMove?.names).toHaveLength(67);
    expect(deferredMove?.reason).toMatch(/over the threshold/);
    expect(moves(c).find((m) => m.names.includes("read"))?.reason).toBe("listed in defer.resident");
    for (const tool of c.tools) expect(CHECKERS["openai-chat"]!(tool)).toEqual([]);
  });

  it("the skill tool stays resident while the system text lists skills, and is deferred when none are", async () => {
    const p = tempProject({
      ".claude/skills/demo/SKILL.md": "---\nname: demo\ndescription: A demo skill for tests.\n---\nBody.\n",
    });
    const plane = await Toolplane.open({
      cwd: p.repo,
      env: p.env,
      set: ["defer.threshold=40"],
      bundledSkills: null,
    });
    plane.tools.register(GLOBAL_LAYER, { name: "many", enumerate: () => manyTools(60) });
    planes.push(plane);
    const c = await plane.catalog("openai-chat");
    expect(c.system).toContain("demo");
    expect(names(c)).toEqual(["skill", TOOL_SEARCH_NAME]);
    expect(c.deferred).not.toContain("skill");
    const bare = await open(manyTools(60), ["defer.threshold=40"]);
    expect((await bare.catalog("openai-chat")).deferred).toContain("skill");
  });

  it("tool_search through the host loads tools; the next render appends them and keeps the prefix", async () => {
    const plane = await open(manyTools(60), ["defer.threshold=40"]);
    const before = await plane.catalog("gemini");
    expect(names(before)).toEqual([TOOL_SEARCH_NAME]);

    const result = await plane.call(TOOL_SEARCH_NAME, { query: "weather forecast city", limit: 2 });
    expect(result.isError).toBe(false);
    const text = result.content.map((b) => ("text" in b ? b.text : "")).join("");
    expect(text).toMatch(/Loaded now: tool_00\d0, tool_00\d0\./);
    const loaded = [...plane.deferral.session.loaded];
    expect(loaded).toHaveLength(2);

    const after = await plane.catalog("gemini");
    expect(names(after)).toEqual([TOOL_SEARCH_NAME, ...loaded]);
    // the tools before the loaded ones are byte-for-byte the same: the cached prefix holds up to them
    expect(digest(after.tools.slice(0, before.tools.length))).toBe(digest(before.tools));
    for (const n of loaded) {
      expect(after.deferred).not.toContain(n);
      expect(after.system).not.toMatch(new RegExp(`\\b${n}\\b`));
    }
    expect(after.report.deferral?.loaded).toEqual(loaded);
    expect(moves(after)).toEqual([
      { from: "deferred", to: "resident", reason: "loaded by tool_search", names: [...loaded].sort() },
    ]);
    expect(after.prefixHash).not.toBe(before.prefixHash);

    // a second search appends after the first ones
    await plane.call(TOOL_SEARCH_NAME, { pattern: "^tool_0001$" });
    const third = await plane.catalog("gemini");
    expect(names(third)).toEqual([TOOL_SEARCH_NAME, ...loaded, "tool_0001"]);
    expect(digest(third.tools.slice(0, after.tools.length))).toBe(digest(after.tools));

    // 100 renders of an unchanged set: no flip, the same bytes
    const json = JSON.stringify(third.tools) + third.system;
    let flips = 0;
    for (let i = 0; i < 100; i++) {
      const again = await plane.catalog("gemini");
      flips += moves(again).reduce((sum, m) => sum + m.names.length, 0);
      expect(again.prefixHash).toBe(third.prefixHash);
      expect(JSON.stringify(again.tools) + again.system).toBe(json);
    }
    expect(flips).toBe(0);
  });

  it("tool_search called before any catalog plans first, so it finds the deferred tools", async () => {
    const plane = await open(manyTools(60), ["defer.threshold=40"]);
    const result = await plane.call(TOOL_SEARCH_NAME, { pattern: "^tool_0007$" });
    expect(result.isError).toBe(false);
    expect(plane.deferral.session.loaded).toEqual(["tool_0007"]);
    const c = await plane.catalog("mcp");
    expect(names(c).at(-1)).toBe("tool_0007");
    // the changes of the plan the call made are not lost: the first catalog shows them
    expect(moves(c).some((m) => m.from === "absent" && m.to === "deferred")).toBe(true);
  });

  it("a deferred tool stays callable by name; its arguments are validated as usual", async () => {
    const plane = await open(manyTools(60), ["defer.threshold=40"]);
    await plane.catalog("openai-chat");
    expect((await plane.call("tool_0003", { q: "hi" })).isError).toBe(false);
    const bad = await plane.call("tool_0003", {});
    expect(bad.isError).toBe(true);
    expect(bad.error?.code).toBe("invalid_arguments");
  });

  it("under the threshold nothing is deferred and tool_search is not offered", async () => {
    const plane = await open(manyTools(10), ["defer.threshold=40"]);
    const c = await plane.catalog("openai-chat");
    expect(c.deferred).toEqual([]);
    expect(names(c)).not.toContain(TOOL_SEARCH_NAME);
    expect(c.system).not.toContain(DEFERRED_HEADER);
    expect(c.report.deferral).toMatchObject({ form: "none" });
    expect(c.report.deferral?.trigger).toMatch(/under the threshold: 18 tools/);
    const search = await plane.call(TOOL_SEARCH_NAME, { query: "weather" });
    expect(search.content[0]).toMatchObject({ text: expect.stringMatching(/Nothing is deferred here/) });
  });

  it("defer.mode allowlist, off, and defer.maxSchemaBytes", async () => {
    const allow = await open(manyTools(3), ["defer.mode=allowlist", 'defer.resident=["grep","tool_0001"]']);
    const a = await allow.catalog("mcp");
    expect(names(a)).toEqual(["grep", "tool_0001", TOOL_SEARCH_NAME]);
    expect(a.report.deferral?.trigger).toMatch(/allowlist/);

    const off = await open(manyTools(60), ["defer.mode=off"]);
    const o = await off.catalog("mcp");
    expect(o.deferred).toEqual([]);
    expect(names(o)).toHaveLength(68);

    const bytes = await open(manyTools(5), ["defer.threshold=40", "defer.maxSchemaBytes=200"]);
    const b = await bytes.catalog("mcp");
    expect(b.deferred.length).toBeGreaterThan(0);
    expect(b.report.deferral?.trigger).toMatch(/bytes \(max 200\)/);
  });

  it("tool_search disabled: nothing is deferred, and the report says why", async () => {
    const plane = await open(manyTools(60), ["defer.threshold=40", 'tools.disabled=["tool_search"]']);
    const c = await plane.catalog("openai-chat");
    expect(c.deferred).toEqual([]);
    expect(names(c)).not.toContain(TOOL_SEARCH_NAME);
    expect(c.report.deferral?.trigger).toBe(
      "nothing is deferred because tool_search is not available: it is disabled (tools.disabled)",
    );
  });

  it("a registry tool called tool_search is withheld: the name belongs to toolplane's search", async () => {
    const plane = await open(
      [simpleTool(TOOL_SEARCH_NAME, "an impostor"), ...manyTools(60)],
      ["defer.threshold=40"],
    );
    const c = await plane.catalog("openai-chat");
    expect(JSON.stringify(c.tools)).not.toContain("an impostor");
    const r = await plane.call(TOOL_SEARCH_NAME, { pattern: "^tool_0002$" });
    expect(r.isError).toBe(false);
    expect(plane.deferral.session.loaded).toEqual(["tool_0002"]);
  });
});

describe("deferred names build no schema through Toolplane.catalog", () => {
  it("1,000 tools, four names-form renders: only the resident tools' schemas are built", async () => {
    const plane = await open(manyTools(1_000), [
      "defer.threshold=40",
      'defer.resident=["read"]',
      "catalog.budget.chars=200000",
    ]);
    const before = parameterSchemasBuiltCount();
    for (const provider of ["openai-chat", "gemini", "mcp"] as const) {
      const c = await plane.catalog(provider);
      expect(c.deferred).toHaveLength(1_007);
      expect(c.report.omitted).toEqual([]);
    }
    const noNative = await open(manyTools(1_000), [
      "defer.threshold=40",
      'defer.resident=["read"]',
      "defer.native=false",
      "catalog.budget.chars=200000",
    ]);
    for (const provider of ["anthropic", "openai-responses"] as const) {
      const c = await noNative.catalog(provider);
      expect(names(c)).toEqual(["read", TOOL_SEARCH_NAME]);
    }
    // read and tool_search, once per Toolplane (projections are kept per tool)
    expect(parameterSchemasBuiltCount() - before).toBe(4);
    // the counter can move: the native form sends deferred tools in full, so it builds them
    await plane.catalog("anthropic");
    expect(parameterSchemasBuiltCount() - before).toBeGreaterThanOrEqual(4 + 1_000);
  });
});

describe("native deferred loading through Toolplane.catalog", () => {
  const check = async (provider: ProviderName) => {
    const plane = await open(manyTools(60), ["defer.threshold=40", 'defer.resident=["read"]']);
    const c = await plane.catalog(provider);
    expect(c.report.deferral?.form).toBe("native");
    expect(c.system).not.toContain(DEFERRED_HEADER);
    expect(c.deferred).toHaveLength(67);
    const wires = c.tools as Array<Record<string, unknown>>;
    expect(nameOf(wires[0])).toBe("read");
    expect(wires[0]).not.toHaveProperty("defer_loading");
    const rest = wires.slice(2);
    expect(rest).toHaveLength(67);
    for (const w of rest) {
      expect(w.defer_loading).toBe(true);
      const { defer_loading: _flag, ...plain } = w;
      expect(CHECKERS[provider]!(plain)).toEqual([]);
    }
    return { plane, c, search: wires[1] };
  };

  it("anthropic: its tool search tool, defer_loading after the resident tools, the beta header", async () => {
    const { c, search } = await check("anthropic");
    expect(search).toEqual({ type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" });
    expect(c.headers).toEqual({ "anthropic-beta": "advanced-tool-use-2025-11-20" });
    // deferred tools stay out of the model's context: not in the budget
    expect(c.budget.chars.used).toBeLessThan(2_000);
  });

  it("openai-responses: {type: tool_search} and defer_loading functions; re-renders keep the bytes", async () => {
    const { plane, c, search } = await check("openai-responses");
    expect(search).toEqual({ type: "tool_search" });
    expect(c.headers).toBeUndefined();
    for (let i = 0; i < 20; i++) {
      const again = await plane.catalog("openai-responses");
      expect(JSON.stringify(again.tools)).toBe(JSON.stringify(c.tools));
      expect(again.prefixHash).toBe(c.prefixHash);
      expect(moves(again)).toEqual([]);
    }
  });
});

describe("the MCP server's list", () => {
  it("lists resident tools and tool_search, and announces a load", async () => {
    const plane = await open(manyTools(60), ["defer.threshold=40", 'defer.resident=["read"]']);
    expect((await plane.modelTools()).map((t) => t.name)).toEqual(["read", TOOL_SEARCH_NAME]);
    let changes = 0;
    const off = plane.onToolsChanged(() => changes++);
    await plane.call(TOOL_SEARCH_NAME, { pattern: "^tool_0009$" });
    expect(changes).toBe(1);
    expect((await plane.modelTools()).map((t) => t.name)).toEqual(["read", TOOL_SEARCH_NAME, "tool_0009"]);
    off();
    const small = await open(manyTools(2));
    expect((await small.modelTools()).map((t) => t.name)).toEqual(
      (await small.visibleTools()).map((t) => t.name),
    );
  });
});
