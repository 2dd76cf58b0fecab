import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type DeferConfig,
  type DeferState,
  EMPTY_DEFER_STATE,
  planDeferral,
  TOOL_SEARCH_NAME,
} from "../../src/defer/plan.js";
import { DeferSession } from "../../src/defer/session.js";

const names = (n: number, prefix = "tool") =>
  Array.from({ length: n }, (_, i) => ({ name: `${prefix}_${i}` }));
const cfg = (over: Partial<DeferConfig> = {}): DeferConfig => ({
  mode: "threshold",
  threshold: 40,
  resident: [],
  ...over,
});

describe("triggers", () => {
  it("off keeps everything resident and offers no tool_search", () => {
    const plan = planDeferral(names(100), cfg({ mode: "off" }));
    expect(plan.deferred).toEqual([]);
    expect(plan.resident).toHaveLength(100);
    expect(plan.toolSearch).toBe(false);
  });

  it("allowlist keeps only defer.resident, then tool_search", () => {
    const plan = planDeferral(names(5), cfg({ mode: "allowlist", resident: ["tool_3", "tool_1"] }));
    expect(plan.resident).toEqual(["tool_1", "tool_3", TOOL_SEARCH_NAME]);
    expect(plan.deferred).toEqual(["tool_0", "tool_2", "tool_4"]);
  });

  it("threshold defers past N tools, never the pinned ones", () => {
    expect(planDeferral(names(40), cfg()).deferred).toEqual([]);
    const plan = planDeferral(names(41), cfg({ resident: ["tool_7"] }));
    expect(plan.deferred).toHaveLength(40);
    expect(plan.resident).toEqual(["tool_7", TOOL_SEARCH_NAME]);
    expect(plan.trigger).toContain("41 tools");
  });

  it("threshold also fires on the byte figure", () => {
    const entries = names(3).map((e) => ({ ...e, bytes: 600 }));
    expect(planDeferral(entries, cfg({ maxSchemaBytes: 2000 })).deferred).toEqual([]);
    const plan = planDeferral(entries, cfg({ maxSchemaBytes: 1000 }));
    expect(plan.deferred).toHaveLength(3);
    expect(plan.trigger).toContain("1800 bytes");
  });

  it("tool_search is never deferred, even when a provider supplies one", () => {
    const plan = planDeferral([...names(50), { name: TOOL_SEARCH_NAME }], cfg());
    expect(plan.deferred).not.toContain(TOOL_SEARCH_NAME);
    expect(plan.resident.filter((n) => n === TOOL_SEARCH_NAME)).toHaveLength(1);
  });
});

describe("marks", () => {
  const marked = (n: number) => [
    { name: "read", mark: "never" as const, markedBy: "built-in tool" },
    { name: "grep", mark: "never" as const, markedBy: "built-in tool" },
    { name: "lazy", mark: "always" as const, markedBy: "defer.tools" },
    ...names(n, "mcp"),
  ];

  it("never stays resident past the threshold; always is deferred under it; auto follows the trigger", () => {
    const under = planDeferral(marked(3), cfg());
    expect(under.deferred).toEqual(["lazy"]);
    expect(under.resident).toEqual(["read", "grep", "mcp_0", "mcp_1", "mcp_2", TOOL_SEARCH_NAME]);
    expect(under.changes.find((c) => c.name === "lazy")?.reason).toBe("marked defer: always (defer.tools)");
    expect(under.changes.find((c) => c.name === "read")?.reason).toBe("marked defer: never (built-in tool)");
    expect(under.changes.find((c) => c.name === "mcp_0")?.reason).toMatch(/^under the threshold/);

    const over = planDeferral(marked(45), cfg());
    expect(over.resident).toEqual(["read", "grep", TOOL_SEARCH_NAME]);
    expect(over.deferred).toHaveLength(46);
    // the trigger counts what would be resident without it: the 2 never and the 45 auto tools
    expect(over.trigger).toBe("over the threshold: 47 tools (threshold 40)");
  });

  it("defer.resident wins over a mark; mode off ignores marks", () => {
    const plan = planDeferral(marked(3), cfg({ resident: ["lazy"] }));
    expect(plan.deferred).toEqual([]);
    expect(plan.changes.find((c) => c.name === "lazy")?.reason).toBe("listed in defer.resident");
    const off = planDeferral(marked(60), cfg({ mode: "off" }));
    expect(off.deferred).toEqual([]);
    expect(off.toolSearch).toBe(false);
    expect(off.changes.find((c) => c.name === "lazy")?.reason).toBe("defer.mode is off");
  });

  it("a loaded tool later marked never is resident once, in its own place", () => {
    const first = planDeferral(marked(45), cfg());
    const loaded = { ...first.state, loaded: ["mcp_3"] };
    const withLoad = planDeferral(marked(45), cfg(), loaded);
    expect(withLoad.resident.at(-1)).toBe("mcp_3");
    const entries = marked(45).map((e) => (e.name === "mcp_3" ? { ...e, mark: "never" as const } : e));
    const pinned = planDeferral(entries, cfg(), withLoad.state);
    expect(pinned.resident.filter((n) => n === "mcp_3")).toHaveLength(1);
    expect(pinned.resident.indexOf("mcp_3")).toBeLessThan(pinned.resident.indexOf(TOOL_SEARCH_NAME));
    expect(pinned.loaded).toEqual([]);
    // the trigger going off does not duplicate loaded tools either
    const few = planDeferral(marked(3), cfg(), withLoad.state);
    expect(new Set(few.resident).size).toBe(few.resident.length);
  });
});

describe("token threshold", () => {
  const sized = (n: number, tokens: number) => names(n).map((e) => ({ ...e, tokens }));

  it("fires on the token figure of the would-be-resident tools, with hysteresis", () => {
    expect(planDeferral(sized(10, 100), cfg({ thresholdTokens: 1000 })).deferred).toEqual([]);
    const on = planDeferral(sized(11, 100), cfg({ thresholdTokens: 1000 }));
    expect(on.deferred).toHaveLength(11);
    expect(on.trigger).toBe("over the threshold: 11 tools (threshold 40), 1100 tokens (threshold 1000)");
    // 900 tokens: inside the band (80% is 800), so nothing flips back
    const band = planDeferral(sized(9, 100), cfg({ thresholdTokens: 1000 }), on.state);
    expect(band.deferred).toHaveLength(9);
    expect(band.trigger).toMatch(/^inside the hysteresis band/);
    const offAgain = planDeferral(sized(8, 100), cfg({ thresholdTokens: 1000 }), band.state);
    expect(offAgain.deferred).toEqual([]);
  });

  it("always-marked tools do not count toward it", () => {
    const entries = [...sized(5, 100), { name: "huge", tokens: 10_000, mark: "always" as const }];
    const plan = planDeferral(entries, cfg({ thresholdTokens: 1000 }));
    expect(plan.deferred).toEqual(["huge"]);
    expect(plan.trigger).toBe("under the threshold: 5 tools (threshold 40), 500 tokens (threshold 1000)");
  });

  it("the session counts o200k tokens of each tool's text only when the figure is set", () => {
    const session = new DeferSession();
    const entries = names(3).map((e) => ({ ...e, description: "Fetch the weather forecast for a city." }));
    expect(session.plan(entries, cfg()).trigger).not.toContain("tokens");
    const plan = session.plan(entries, cfg({ thresholdTokens: 10 }));
    const tokens = Number(/, (\d+) tokens/.exec(plan.trigger)?.[1]);
    // name + description per tool: a few dozen o200k tokens in all, counted, not estimated from bytes
    expect(tokens).toBeGreaterThan(20);
    expect(tokens).toBeLessThan(80);
    expect(plan.deferred).toHaveLength(3);
  });
});

describe("stability", () => {
  it("an unchanged tool set over 100 renders flips nothing", () => {
    const entries = names(60);
    let state: DeferState = EMPTY_DEFER_STATE;
    const first = planDeferral(entries, cfg(), state);
    state = first.state;
    let flips = 0;
    for (let i = 0; i < 100; i++) {
      const plan = planDeferral(entries, cfg(), state);
      flips += plan.changes.length;
      expect(plan.resident).toEqual(first.resident);
      state = plan.state;
    }
    expect(first.changes.length).toBe(61); // 60 tools + tool_search appear, each reported
    expect(flips).toBe(0);
  });

  it("hysteresis: a set hovering at the threshold does not flip every tool", () => {
    let state = planDeferral(names(41), cfg()).state;
    const down = planDeferral(names(39), cfg(), state);
    expect(down.deferred).toHaveLength(39);
    expect(down.trigger).toContain("hysteresis");
    expect(down.changes.map((c) => c.name).sort()).toEqual(["tool_39", "tool_40"]);
    state = down.state;
    const up = planDeferral(names(41), cfg(), state);
    expect(up.changes.every((c) => c.from === "absent")).toBe(true);
    const low = planDeferral(names(32), cfg(), up.state);
    expect(low.deferred).toEqual([]);
    expect(low.changes.find((c) => c.name === "tool_0")?.reason).toContain("under the threshold");
    expect(low.changes.find((c) => c.name === TOOL_SEARCH_NAME)?.reason).toContain("withdrawn");
  });

  it("every change names its reason", () => {
    const a = planDeferral(names(50), cfg());
    const b = planDeferral(names(10), cfg(), a.state);
    for (const c of [...a.changes, ...b.changes]) expect(c.reason).not.toBe("");
    expect(b.changes.find((c) => c.name === "tool_49")).toMatchObject({
      from: "deferred",
      to: "absent",
      reason: "left the tool set",
    });
  });

  it("property: with marks and loads, replaying the same set never changes residency", () => {
    const mark = fc.constantFrom(undefined, "never" as const, "always" as const, "auto" as const);
    fc.assert(
      fc.property(
        fc.array(mark, { maxLength: 90 }),
        fc.integer({ min: 1, max: 60 }),
        fc.option(fc.integer({ min: 1, max: 2000 }), { nil: null }),
        fc.array(fc.integer({ min: 0, max: 89 }), { maxLength: 5 }),
        (marks, threshold, thresholdTokens, load) => {
          const entries = marks.map((m, i) => ({
            name: `tool_${i}`,
            description: `does job ${i}`,
            ...(m ? { mark: m } : {}),
          }));
          const session = new DeferSession();
          const config = cfg({ threshold, thresholdTokens });
          session.plan(entries, config);
          session.load(load.map((i) => `tool_${i}`));
          const second = session.plan(entries, config);
          const third = session.plan(entries, config);
          expect(third.changes).toEqual([]);
          expect(third.resident).toEqual(second.resident);
          expect(new Set(third.resident).size).toBe(third.resident.length);
          for (const e of entries) {
            if (e.mark === "never") expect(third.resident).toContain(e.name);
            if (e.mark === "always")
              expect(third.resident.includes(e.name)).toBe(load.includes(Number(e.name.slice(5))));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("property: replaying the same set never changes residency", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 1, max: 80 }),
        fc.array(fc.integer({ min: 0, max: 119 }), { maxLength: 5 }),
        (n, threshold, load) => {
          const entries = names(n);
          const s = new DeferSession();
          const session = s;
          const toSearch = entries.map((e) => ({ name: e.name, description: e.name }));
          session.plan(toSearch, cfg({ threshold }));
          session.load(load.map((i) => `tool_${i}`));
          const second = session.plan(toSearch, cfg({ threshold }));
          const third = session.plan(toSearch, cfg({ threshold }));
          expect(third.changes).toEqual([]);
          expect(third.resident).toEqual(second.resident);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("loaded set", () => {
  const entries = names(50).map((e) => ({ name: e.name, description: `does job ${e.name}` }));

  it("loaded tools become resident at the end and stay there across renders", () => {
    const session = new DeferSession();
    const first = session.plan(entries, cfg({ resident: ["tool_0"] }));
    expect(first.resident).toEqual(["tool_0", TOOL_SEARCH_NAME]);
    expect(session.load(["tool_9", "tool_3", "tool_0", "nope"])).toEqual(["tool_9", "tool_3"]);
    const second = session.plan(entries, cfg({ resident: ["tool_0"] }));
    expect(second.resident).toEqual(["tool_0", TOOL_SEARCH_NAME, "tool_9", "tool_3"]);
    expect(second.resident.slice(0, first.resident.length)).toEqual(first.resident);
    expect(second.changes).toEqual([
      { name: "tool_3", from: "deferred", to: "resident", reason: "loaded by tool_search" },
      { name: "tool_9", from: "deferred", to: "resident", reason: "loaded by tool_search" },
    ]);
    for (let i = 0; i < 10; i++)
      expect(session.plan(entries, cfg({ resident: ["tool_0"] })).resident).toEqual(second.resident);
    session.load(["tool_1"]);
    expect(session.plan(entries, cfg({ resident: ["tool_0"] })).resident.slice(-3)).toEqual([
      "tool_9",
      "tool_3",
      "tool_1",
    ]);
  });

  it("a name given twice in one load is loaded once", () => {
    const session = new DeferSession();
    session.plan(entries, cfg());
    expect(session.load(["tool_9", "tool_9"])).toEqual(["tool_9"]);
    const plan = session.plan(entries, cfg());
    expect(plan.resident.filter((n) => n === "tool_9")).toHaveLength(1);
  });

  it("a loaded tool that leaves the tool set leaves the loaded set", () => {
    const session = new DeferSession();
    session.plan(entries, cfg());
    session.load(["tool_5"]);
    expect(session.plan(entries, cfg()).loaded).toEqual(["tool_5"]);
    const gone = session.plan(
      entries.filter((e) => e.name !== "tool_5"),
      cfg(),
    );
    expect(gone.loaded).toEqual([]);
    expect(gone.changes).toContainEqual({
      name: "tool_5",
      from: "resident",
      to: "absent",
      reason: "left the tool set",
    });
  });

  it("a search loads what it finds", () => {
    const session = new DeferSession();
    session.plan(
      [...entries, { name: "weather_forecast", description: "Get the weather forecast for a city" }],
      cfg(),
    );
    const out = session.search({ query: "weather in Paris tomorrow" });
    expect(out.hits[0]?.name).toBe("weather_forecast");
    expect(out.loaded).toContain("weather_forecast");
    expect(session.search({ query: "weather in Paris tomorrow" }).loaded).toEqual([]);
  });
});

describe("config", () => {
  it("reads the defer.* keys with their defaults and --set overrides", async () => {
    const { loadConfig } = await import("../../src/config/index.js");
    const { deferConfigFrom } = await import("../../src/defer/config.js");
    const { tempProject } = await import("../helpers/tmp.js");
    const p = tempProject();
    const base = deferConfigFrom(loadConfig({ cwd: p.repo, env: p.env, set: [] }));
    expect(base).toEqual({
      mode: "threshold",
      threshold: 40,
      maxSchemaBytes: null,
      thresholdTokens: null,
      resident: [],
      native: true,
      // tool_search's ranking: lexical unless set
      embedder: "off",
    });
    const set = deferConfigFrom(
      loadConfig({
        cwd: p.repo,
        env: p.env,
        set: [
          "defer.mode=allowlist",
          "defer.maxSchemaBytes=5000",
          "defer.thresholdTokens=20000",
          'defer.resident=["a"]',
        ],
      }),
    );
    expect(set).toMatchObject({
      mode: "allowlist",
      maxSchemaBytes: 5000,
      thresholdTokens: 20000,
      resident: ["a"],
    });
  });
});

describe("names that are Object.prototype keys", () => {
  it("constructor, toString and __proto__ plan like any other name", () => {
    const entries = ["constructor", "toString", "__proto__"].map((name) => ({ name }));
    const config = { mode: "allowlist" as const, threshold: 40, resident: ["toString"] };
    const first = planDeferral(entries, config);
    expect(first.deferred).toEqual(["constructor", "__proto__"]);
    expect(first.changes.map((c) => [c.name, c.from, c.to])).toEqual([
      ["__proto__", "absent", "deferred"],
      ["constructor", "absent", "deferred"],
      ["toString", "absent", "resident"],
      ["tool_search", "absent", "resident"],
    ]);
    expect(planDeferral(entries, config, first.state).changes).toEqual([]);
    const gone = planDeferral([{ name: "toString" }], config, first.state);
    expect(gone.changes.map((c) => [c.name, c.to])).toEqual([
      ["__proto__", "absent"],
      ["constructor", "absent"],
      ["tool_search", "absent"],
    ]);
  });
});
