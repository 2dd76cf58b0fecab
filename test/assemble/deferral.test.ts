import { hash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { BUILTIN_PROVIDER } from "../../src/assemble/marks.js";
import { Toolplane } from "../../src/assemble/toolplane.js";
import { parameterSchemasBuiltCount } from "../../src/declare/index.js";
import type { AnyTool } from "../../src/declare/types.js";
import { TOOL_SEARCH_NAME } from "../../src/defer/index.js";
import { GLOBAL_LAYER } from "../../src/register/index.js";
import { type Catalog, DEFERRED_HEADER, type ProviderName } from "../../src/render/index.js";
import { builtinProvider } from "../../src/tools/index.js";
import { listingOf } from "../helpers/listing.js";
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
/** The built-in tools (provider `builtin`): resident unless marked, whatever their number. */
const builtins = async (plane: Toolplane) =>
  (await plane.toolSnapshot()).entries.filter((e) => e.provider === "builtin").map((e) => e.name);

describe("Toolplane.catalog defers per defer.*", () => {
  it("the rule for built-ins follows the provider the built-in tools are registered under", () => {
    // marks.ts keys the default on the provider's name, not on a list of tool names
    expect(builtinProvider().name).toBe(BUILTIN_PROVIDER);
  });

  it("60 tools over a threshold of 40: built-ins stay, the rest by name, tool_search resident, changes reported", async () => {
    const plane = await open(manyTools(60), ["defer.threshold=40", 'defer.resident=["tool_0042"]']);
    const c = await plane.catalog("openai-chat");
    const own = await builtins(plane);
    expect(own).toEqual(expect.arrayContaining(["read", "grep", "glob", "skill"]));
    expect(names(c)).toEqual([...own, "tool_0042", TOOL_SEARCH_NAME]);
    expect(c.deferred).toHaveLength(60); // 59 of the 60, and ticket_status
    expect(c.deferred).toContain("ticket_status");
    expect(c.deferred).toContain("tool_0041");
    expect(listingOf(c)).toContain(`${DEFERRED_HEADER}\n`);
    expect(listingOf(c)).toContain("tool_0041");
    expect(listingOf(c)).not.toContain("weather"); // names only: no descriptions, no search hints
    expect(c.report.deferral).toMatchObject({ form: "names", loaded: [] });
    // the trigger counts every tool that would be resident without it
    expect(c.report.deferral?.trigger).toBe(`over the threshold: ${61 + own.length} tools (threshold 40)`);
    const deferredMove = moves(c).find((m) => m.to === "deferred");
    expect(deferredMove?.names).toHaveLength(60);
    expect(deferredMove?.reason).toMatch(/over the threshold/);
    expect(moves(c).find((m) => m.names.includes("read"))?.reason).toBe(
      "marked defer: never (built-in tool)",
    );
    expect(moves(c).find((m) => m.names.includes("tool_0042"))?.reason).toBe("listed in defer.resident");
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
    expect(listingOf(c)).toContain("demo");
    expect(names(c)).toContain("skill");
    expect(c.deferred).not.toContain("skill");
    // marked to defer, it still stays while skills are listed (the text points at it) ...
    const marked = await Toolplane.open({
      cwd: p.repo,
      env: p.env,
      set: ["defer.threshold=40", 'defer.tools={"skill":"always"}'],
      bundledSkills: null,
    });
    planes.push(marked);
    const kept = await marked.catalog("openai-chat");
    expect(kept.deferred).not.toContain("skill");
    // ... and says why: held by the skill listing, not a defer.resident nobody set
    const why = "kept resident by the skill listing (it tells the model to load skills with this tool)";
    expect(moves(kept).find((m) => m.names.includes("skill"))?.reason).toBe(why);
    const explained = (await marked.explainDeferral()).tools.find((t) => t.name === "skill");
    expect(explained).toMatchObject({ residency: "resident", mark: "never", reason: why });
    expect(explained?.markedBy).toBe("the skill listing (it tells the model to load skills with this tool)");
    expect(JSON.stringify(await marked.explainDeferral())).not.toContain("defer.resident");
    // ... and is deferred when none are
    const bare = await open(manyTools(60), ["defer.threshold=40", 'defer.tools={"skill":"auto"}']);
    expect((await bare.catalog("openai-chat")).deferred).toContain("skill");
  });

  it("tool_search through the host loads tools; the next render appends them and keeps the prefix", async () => {
    const plane = await open(manyTools(60), ["defer.threshold=40"]);
    const before = await plane.catalog("gemini");
    const own = await builtins(plane);
    expect(names(before)).toEqual([...own, TOOL_SEARCH_NAME]);

    const result = await plane.call(TOOL_SEARCH_NAME, { query: "weather forecast city", limit: 2 });
    expect(result.isError).toBe(false);
    const text = result.content.map((b) => ("text" in b ? b.text : "")).join("");
    expect(text).toMatch(/Loaded now: tool_00\d0, tool_00\d0\./);
    const loaded = [...plane.deferral.session.loaded];
    expect(loaded).toHaveLength(2);

    const after = await plane.catalog("gemini");
    expect(names(after)).toEqual([...own, TOOL_SEARCH_NAME, ...loaded]);
    // the tools before the loaded ones are byte-for-byte the same: the cached prefix holds up to them
    expect(digest(after.tools.slice(0, before.tools.length))).toBe(digest(before.tools));
    for (const n of loaded) {
      expect(after.deferred).not.toContain(n);
      expect(listingOf(after)).not.toMatch(new RegExp(`\\b${n}\\b`));
    }
    expect(after.report.deferral?.loaded).toEqual(loaded);
    expect(moves(after)).toEqual([
      { from: "deferred", to: "resident", reason: "loaded by tool_search", names: [...loaded].sort() },
    ]);
    expect(after.prefixHash).not.toBe(before.prefixHash);

    // a second search appends after the first ones
    await plane.call(TOOL_SEARCH_NAME, { pattern: "^tool_0001$" });
    const third = await plane.catalog("gemini");
    expect(names(third)).toEqual([...own, TOOL_SEARCH_NAME, ...loaded, "tool_0001"]);
    expect(digest(third.tools.slice(0, after.tools.length))).toBe(digest(after.tools));

    // 100 renders of an unchanged set: no flip, the same bytes
    const json = JSON.stringify(third.tools) + listingOf(third);
    let flips = 0;
    for (let i = 0; i < 100; i++) {
      const again = await plane.catalog("gemini");
      flips += moves(again).reduce((sum, m) => sum + m.names.length, 0);
      expect(again.prefixHash).toBe(third.prefixHash);
      expect(JSON.stringify(again.tools) + listingOf(again)).toBe(json);
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

  it("a deferred tool is not callable until tool_search loads it; the error says to search first", async () => {
    const plane = await open(manyTools(60), ["defer.threshold=40"]);
    const c = await plane.catalog("openai-chat");
    expect(listingOf(c)).toContain("load one with tool_search before calling it");
    const early = await plane.call("tool_0003", { q: "hi" });
    expect(early.isError).toBe(true);
    expect(early.error?.code).toBe("unknown_tool");
    expect(early.error?.message).toBe(
      'tool_0003 is not available here: it is deferred (listed by name only) and not loaded yet; call tool_search first (e.g. {"pattern": "^tool_0003$"}, or a query for what it does), then call it from the next turn.',
    );
    // the same through a turn of the host, as a model's call arrives
    const [turn] = await plane.host().run([{ id: "c1", tool: "tool_0003", args: '{"q":"hi"}' }]);
    expect(turn).toMatchObject({ isError: true, error: { code: "unknown_tool" } });
    // the built-ins and the resident tools are callable as ever
    expect((await plane.call("glob", { pattern: "*.md" })).error?.code).not.toBe("unknown_tool");

    await plane.call(TOOL_SEARCH_NAME, { pattern: "^tool_0003$" });
    expect((await plane.call("tool_0003", { q: "hi" })).isError).toBe(false);
    const bad = await plane.call("tool_0003", {});
    expect(bad.isError).toBe(true);
    expect(bad.error?.code).toBe("invalid_arguments");
  });

  it("a harness may load a deferred tool itself (plane.load); a resident one is left alone", async () => {
    const plane = await open(manyTools(60), ["defer.threshold=40"]);
    expect(await plane.load(["tool_0004", "read", "nope"])).toEqual(["tool_0004"]);
    expect((await plane.call("tool_0004", { q: "hi" })).isError).toBe(false);
    expect(names(await plane.catalog("openai-chat")).at(-1)).toBe("tool_0004");
  });

  it("in the native form the provider's search loads deferred tools, so the host takes their calls", async () => {
    const plane = await open(manyTools(60), ["defer.threshold=40"]);
    expect((await plane.catalog("anthropic")).report.deferral?.form).toBe("native");
    expect((await plane.call("tool_0003", { q: "hi" })).isError).toBe(false);
    // a names-form catalog again: the model was told to search first, and the host holds it to that
    expect((await plane.catalog("openai-chat")).report.deferral?.form).toBe("names");
    expect((await plane.call("tool_0005", { q: "hi" })).error?.code).toBe("unknown_tool");
  });

  it("under the threshold nothing is deferred and tool_search is not offered", async () => {
    const plane = await open(manyTools(10), ["defer.threshold=40"]);
    const c = await plane.catalog("openai-chat");
    expect(c.deferred).toEqual([]);
    expect(names(c)).not.toContain(TOOL_SEARCH_NAME);
    expect(listingOf(c)).not.toContain(DEFERRED_HEADER);
    expect(c.report.deferral).toMatchObject({ form: "none" });
    expect(c.report.deferral?.trigger).toMatch(/under the threshold: 18 tools/);
    const search = await plane.call(TOOL_SEARCH_NAME, { query: "weather" });
    expect(search.content[0]).toMatchObject({ text: expect.stringMatching(/Nothing is deferred here/) });
  });

  it("defer.mode allowlist, off, and defer.maxSchemaBytes", async () => {
    const allow = await open(manyTools(3), [
      "defer.mode=allowlist",
      'defer.resident=["tool_0001"]',
      'defer.tools={"grep":"auto"}',
    ]);
    const a = await allow.catalog("mcp");
    const own = (await builtins(allow)).filter((n) => n !== "grep");
    expect(names(a)).toEqual([...own, "tool_0001", TOOL_SEARCH_NAME]);
    expect(a.deferred).toEqual(["grep", "ticket_status", "tool_0000", "tool_0002"]);
    expect(a.report.deferral?.trigger).toMatch(/allowlist/);

    // off: nothing is deferred, whatever the marks say
    const off = await open(manyTools(60), ["defer.mode=off", 'defer.tools={"tool_0001":"always"}']);
    const o = await off.catalog("mcp");
    expect(o.deferred).toEqual([]);
    expect(names(o)).toHaveLength(61 + (await builtins(off)).length);

    const bytes = await open(manyTools(5), ["defer.threshold=40", "defer.maxSchemaBytes=200"]);
    const b = await bytes.catalog("mcp");
    expect(b.deferred.length).toBeGreaterThan(0);
    expect(b.report.deferral?.trigger).toMatch(/bytes \(max 200\)/);
  });

  it("defer.thresholdTokens: deferral starts once the would-be-resident tools pass that many o200k tokens", async () => {
    // each tool's text (name, description, parameters) is about 20 tokens; 5 tools plus the
    // built-ins and the example stay far under 40 tools
    const under = await open(manyTools(5), ["defer.threshold=40", "defer.thresholdTokens=100000"]);
    const u = await under.catalog("openai-chat");
    expect(u.deferred).toEqual([]);
    expect(u.report.deferral?.trigger).toMatch(
      /^under the threshold: \d+ tools \(threshold 40\), \d+ tokens \(threshold 100000\)$/,
    );
    const used = Number(/, (\d+) tokens/.exec(u.report.deferral!.trigger)![1]);
    expect(used).toBeGreaterThan(50);

    const over = await open(manyTools(5), ["defer.threshold=40", `defer.thresholdTokens=${used - 1}`]);
    const o = await over.catalog("openai-chat");
    expect(o.deferred).toEqual([
      "ticket_status",
      "tool_0000",
      "tool_0001",
      "tool_0002",
      "tool_0003",
      "tool_0004",
    ]);
    expect(o.report.deferral?.trigger).toBe(
      `over the threshold: ${6 + (await builtins(over)).length} tools (threshold 40), ${used} tokens (threshold ${used - 1})`,
    );
    // the schemas of the deferred tools were not built to count them
    const before = parameterSchemasBuiltCount();
    const again = await open(manyTools(500), ["defer.threshold=10000", "defer.thresholdTokens=1000"]);
    // the deferred names fill what the resident tools leave of the budget; the rest are reported
    const a = await again.catalog("openai-chat");
    expect(a.deferred.length).toBeGreaterThan(400);
    expect(new Set([...a.deferred, ...a.report.omitted]).size).toBe(501);
    expect(parameterSchemasBuiltCount() - before).toBe((await builtins(again)).length + 1);
  });

  it("marks: per tool in the declaration or defer.tools, per MCP server's provider; defer.tools wins", async () => {
    const own = simpleTool("pinned_by_author", "A tool its author keeps in the list.");
    const marked = { ...own, host: { ...own.host, defer: "never" as const } };
    const lazy = simpleTool("lazy_by_author", "A tool its author always defers.");
    const lazyMarked = { ...lazy, host: { ...lazy.host, defer: "always" as const } };
    const plane = await open([marked, lazyMarked, ...manyTools(3)], ['defer.tools={"tool_0001":"always"}']);
    const c = await plane.catalog("openai-chat");
    // under the threshold, only the "always" tools are deferred, and tool_search comes with them
    expect(c.deferred).toEqual(["lazy_by_author", "tool_0001"]);
    expect(names(c)).toContain("pinned_by_author");
    expect(names(c)).toContain(TOOL_SEARCH_NAME);
    const reasons = Object.fromEntries(moves(c).flatMap((m) => m.names.map((n) => [n, m.reason])));
    expect(reasons.lazy_by_author).toBe("marked defer: always (the tool's declaration)");
    expect(reasons.tool_0001).toBe("marked defer: always (defer.tools)");
    expect(reasons.pinned_by_author).toBe("marked defer: never (the tool's declaration)");

    // over the threshold the "never" one stays; defer.tools can override the author's mark
    const over = await open(
      [marked, lazyMarked, ...manyTools(60)],
      ["defer.threshold=40", 'defer.tools={"lazy_by_author":"never","read":"always"}'],
    );
    const o = await over.catalog("openai-chat");
    expect(names(o)).toEqual(expect.arrayContaining(["pinned_by_author", "lazy_by_author"]));
    expect(o.deferred).toContain("read");
    expect(o.deferred).toContain("tool_0001");
  });

  it("an unchanged set flips nothing over 50 renders; a tool added past the threshold moves only itself", async () => {
    const p = tempProject();
    const open2 = async (set: string[]) => {
      const plane = await Toolplane.open({ cwd: p.repo, env: p.env, set, bundledSkills: null });
      plane.tools.register(GLOBAL_LAYER, { name: "many", enumerate: () => manyTools(60) });
      planes.push(plane);
      return plane;
    };
    const plane = await open2(["defer.threshold=40"]);
    const first = await plane.catalog("openai-chat");
    for (let i = 0; i < 50; i++) expect(moves(await plane.catalog("openai-chat"))).toEqual([]);
    // a tool added past the threshold moves only itself
    plane.tools.register(GLOBAL_LAYER, {
      name: "late",
      enumerate: () => [simpleTool("late_tool", "Added later.")],
    });
    const next = await plane.catalog("openai-chat");
    expect(moves(next)).toEqual([
      {
        from: "absent",
        to: "deferred",
        reason: first.report.deferral!.trigger.replace(/(\d+) tools/, (_, n) => `${Number(n) + 1} tools`),
        names: ["late_tool"],
      },
    ]);
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
      expect(c.deferred).toHaveLength(1_001); // the 1,000 and ticket_status; built-ins stay
      expect(c.report.omitted).toEqual([]);
    }
    const own = await builtins(plane);
    const noNative = await open(manyTools(1_000), [
      "defer.threshold=40",
      'defer.resident=["read"]',
      "defer.native=false",
      "catalog.budget.chars=200000",
    ]);
    for (const provider of ["anthropic", "openai-responses"] as const) {
      const c = await noNative.catalog(provider);
      expect(names(c)).toEqual([...own, "read", TOOL_SEARCH_NAME].filter((n, i, a) => a.indexOf(n) === i));
    }
    // the built-ins and tool_search, once per Toolplane (projections are kept per tool)
    const resident = 2 * (own.length + 1);
    expect(parameterSchemasBuiltCount() - before).toBe(resident);
    // the counter can move: the native form sends deferred tools in full, so it builds them
    await plane.catalog("anthropic");
    expect(parameterSchemasBuiltCount() - before).toBeGreaterThanOrEqual(resident + 1_000);
  });
});

describe("native deferred loading through Toolplane.catalog", () => {
  const check = async (provider: ProviderName) => {
    const plane = await open(manyTools(60), ["defer.threshold=40"]);
    const c = await plane.catalog(provider);
    const own = await builtins(plane);
    expect(c.report.deferral?.form).toBe("native");
    expect(listingOf(c)).not.toContain(DEFERRED_HEADER);
    expect(c.deferred).toHaveLength(61);
    const wires = c.tools as Array<Record<string, unknown>>;
    expect(wires.slice(0, own.length).map(nameOf)).toEqual(own);
    for (const w of wires.slice(0, own.length)) expect(w).not.toHaveProperty("defer_loading");
    const rest = wires.slice(own.length + 1);
    expect(rest).toHaveLength(61);
    for (const w of rest) {
      expect(w.defer_loading).toBe(true);
      const { defer_loading: _flag, ...plain } = w;
      expect(CHECKERS[provider]!(plain)).toEqual([]);
    }
    return { plane, c, search: wires[own.length] };
  };

  it("anthropic: its tool search tool, defer_loading after the resident tools, the beta header", async () => {
    const { plane, c, search } = await check("anthropic");
    expect(search).toEqual({ type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" });
    expect(c.headers).toEqual({ "anthropic-beta": "advanced-tool-use-2025-11-20" });
    // deferred tools stay out of the model's context: the budget counts the resident tools only
    const own = new Set(await builtins(plane));
    const resident = (await plane.toolSnapshot()).entries.filter((e) => own.has(e.name));
    const residentChars = resident.reduce((n, e) => n + e.entry.name.length + e.entry.description.length, 0);
    expect(c.budget.chars.used).toBeLessThan(residentChars + 1_000);
    expect(c.budget.chars.used).toBeGreaterThan(0);
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
    const plane = await open(manyTools(60), ["defer.threshold=40"]);
    const own = await builtins(plane);
    expect((await plane.modelTools()).map((t) => t.name)).toEqual([...own, TOOL_SEARCH_NAME]);
    let changes = 0;
    const off = plane.onToolsChanged(() => changes++);
    await plane.call(TOOL_SEARCH_NAME, { pattern: "^tool_0009$" });
    expect(changes).toBe(1);
    expect((await plane.modelTools()).map((t) => t.name)).toEqual([...own, TOOL_SEARCH_NAME, "tool_0009"]);
    off();
    const small = await open(manyTools(2));
    expect((await small.modelTools()).map((t) => t.name)).toEqual(
      (await small.visibleTools()).map((t) => t.name),
    );
  });
});
