import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, parameterSchemasBuiltCount } from "../../src/declare/index.js";
import { projectTool } from "../../src/declare/project.js";
import type { AnyTool } from "../../src/declare/types.js";
import { decorateTools } from "../../src/defer/native.js";
import { Bm25fIndex } from "../../src/defer/search/bm25f.js";
import { entryFromJson, entryFromTool } from "../../src/defer/search/from-tool.js";
import { splitWords, terms } from "../../src/defer/search/tokenize.js";
import { NO_FIT_THRESHOLD, selectionCheck } from "../../src/defer/selection.js";
import { DeferSession } from "../../src/defer/session.js";
import { toolSearchTool } from "../../src/defer/tool-search.js";
import { TicketStore, ticketStatusTool } from "../../src/examples/ticket-status/index.js";
import { GLOBAL_LAYER, Registry } from "../../src/register/index.js";

const tools = [
  { name: "getWeatherForecast", description: "Get the weather forecast for a city for the next days." },
  {
    name: "github.create_issue",
    description: "Open a new issue in a GitHub repository.",
    params: "repo owner/name title body",
  },
  {
    name: "fs_read_file",
    description: "Read a text file from the workspace.",
    params: "path file path to read",
  },
  { name: "currency_convert", description: "Convert an amount between currencies at today's rate." },
  { name: "send_email", description: "Send an email message to one or more recipients." },
];

describe("tokenising", () => {
  it("splits camelCase, snake_case, dots, acronyms and digits", () => {
    expect(splitWords("getHTTPResponse.parse_json2xml")).toEqual([
      "get",
      "http",
      "response",
      "parse",
      "json",
      "2",
      "xml",
    ]);
  });
  it("stems and drops stop words", () => {
    expect(terms("Converting the currencies")).toEqual(["convert", "currenc"]);
  });
});

describe("ranking", () => {
  const index = new Bm25fIndex();
  index.sync(tools);

  it("finds the tool by words from its name and description", () => {
    expect(index.search("what will the weather be in Oslo", 3)[0]?.name).toBe("getWeatherForecast");
    expect(index.search("read the file src/a.ts", 3)[0]?.name).toBe("fs_read_file");
    expect(index.search("converted 100 dollars into euros, currency", 3)[0]?.name).toBe("currency_convert");
  });

  it("matches parameter text and namespaces", () => {
    const idx = new Bm25fIndex();
    idx.sync([
      { name: "list", description: "List things.", namespace: "mcp:kubernetes" },
      { name: "list2", description: "List things.", params: "bucket the storage bucket" },
    ]);
    expect(idx.search("kubernetes", 1)[0]?.name).toBe("list");
    expect(idx.search("bucket", 1)[0]?.name).toBe("list2");
  });

  it("gives confidence to a tool the query matches only through its parameters, but less", () => {
    const idx = new Bm25fIndex();
    idx.sync([
      { name: "lookup", description: "Look something up.", params: "isotope the isotope symbol" },
      { name: "isotope_lookup", description: "Look up an isotope." },
    ]);
    const hits = idx.search("look up the isotope", 2);
    expect(hits.map((h) => h.name)).toEqual(["isotope_lookup", "lookup"]);
    expect(hits[1]!.score).toBeGreaterThan(0);
    expect(hits[1]!.score).toBeLessThan(hits[0]!.score);
    // Without parameter words in the coverage, a parameter-only match would read as "no fit".
    const bare = new Bm25fIndex({ paramCoverage: 0 });
    bare.sync([{ name: "lookup", description: "Do it.", params: "isotope the isotope symbol" }]);
    expect(bare.search("isotope", 1)[0]!.score).toBe(0);
    const withParams = new Bm25fIndex();
    withParams.sync([{ name: "lookup", description: "Do it.", params: "isotope the isotope symbol" }]);
    expect(withParams.search("isotope", 1)[0]!.score).toBeGreaterThan(0);
  });

  it("is deterministic and scores in [0, 1)", () => {
    const a = index.search("send a message", 5);
    const b = index.search("send a message", 5);
    expect(a).toEqual(b);
    for (const h of a) {
      expect(h.score).toBeGreaterThanOrEqual(0);
      expect(h.score).toBeLessThan(1);
    }
  });

  it("says nothing fits below the threshold", () => {
    const top = index.search("book a table at an Italian restaurant for two", 1)[0];
    expect(top === undefined || top.score < NO_FIT_THRESHOLD).toBe(true);
    expect(index.search("send an email to the recipients", 1)[0]!.score).toBeGreaterThanOrEqual(
      NO_FIT_THRESHOLD,
    );
  });
});

describe("regex mode", () => {
  const index = new Bm25fIndex();
  index.sync(tools);
  it("matches names first, then descriptions and parameters", () => {
    const hits = index.searchRegex(/issue|email/i, 5);
    expect(hits.map((h) => h.name)).toEqual(["github.create_issue", "send_email"]);
    expect(index.searchRegex(/workspace/i, 5).map((h) => h.name)).toEqual(["fs_read_file"]);
    expect(index.searchRegex(/owner\/name/i, 5)[0]).toMatchObject({
      name: "github.create_issue",
      score: 0.5,
    });
  });
  it("only ranks deferred tools in a session, and rejects a bad pattern clearly", () => {
    const session = new DeferSession();
    session.plan(tools, { mode: "allowlist", threshold: 40, resident: ["send_email"] });
    expect(session.search({ pattern: "e", limit: 10 }).hits.map((h) => h.name)).not.toContain("send_email");
    expect(() => session.search({ pattern: "(" })).toThrow(/not a valid regular expression/);
  });
});

describe("incremental index", () => {
  it("re-indexes only entries whose text changed", () => {
    const index = new Bm25fIndex();
    expect(index.sync(tools).added).toHaveLength(5);
    const changed = tools.map((t) =>
      t.name === "send_email" ? { ...t, description: "Send a fax to a number." } : t,
    );
    const report = index.sync(changed.filter((t) => t.name !== "fs_read_file"));
    expect(report).toEqual({ added: [], changed: ["send_email"], removed: ["fs_read_file"] });
    expect(index.search("fax", 1)[0]?.name).toBe("send_email");
    expect(index.search("message recipients", 5).map((h) => h.name)).not.toContain("send_email");
    expect(index.search("read file", 5).map((h) => h.name)).not.toContain("fs_read_file");
    expect(index.upsert(changed[0]!)).toBe(false);
  });

  it("an incrementally built index ranks like one built from scratch", () => {
    const a = new Bm25fIndex();
    a.sync([...tools, { name: "tmp", description: "temporary weather" }]);
    a.sync(tools);
    const b = new Bm25fIndex();
    b.sync(tools);
    for (const q of ["weather", "send email", "file", "issue"])
      expect(a.search(q, 5)).toEqual(b.search(q, 5));
  });

  it("after any sequence of upserts and removals, ranks exactly like a fresh index of what is left", () => {
    // Few names and words, so edits hit the same postings again and again (swap-removal, growth).
    const word = fc.constantFrom("weather", "file", "read", "send", "email", "issue", "city", "rate");
    const edit = fc.record({
      name: fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h"),
      remove: fc.boolean(),
      description: fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(" ")),
      params: fc.array(word, { maxLength: 3 }).map((w) => w.join(" ")),
    });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 60 }), (edits) => {
        const live = new Map<string, { name: string; description: string; params: string }>();
        const a = new Bm25fIndex();
        edits.forEach((e, i) => {
          if (e.remove) {
            a.remove(e.name);
            live.delete(e.name);
          } else {
            const entry = { name: e.name, description: e.description, params: e.params };
            a.upsert(entry);
            live.set(e.name, entry);
          }
          // Query between edits too, so cached weights go stale and must be redone.
          if (i % 7 === 0) a.search("weather file", 3);
        });
        const b = new Bm25fIndex();
        b.sync(live.values());
        for (const q of ["weather", "send email", "read file city", "rate issue weather"])
          expect(a.search(q, 8)).toEqual(b.search(q, 8));
      }),
      { numRuns: 200 },
    );
  });
});

describe("light entries", () => {
  it("derives parameter names and descriptions from zod and raw schemas without building JSON Schema", () => {
    const before = parameterSchemasBuiltCount();
    const tool = ticketStatusTool(new TicketStore());
    const entry = entryFromTool(tool, "ticket");
    expect(entry.params).toContain("ticket_id The ticket's ID");
    expect(entry.params).toContain("include_history Also return");
    expect(entry.namespace).toBe("ticket");
    expect(
      entryFromJson({
        name: "x",
        parameters: { type: "object", properties: { city: { description: "City name" } } },
      }).params,
    ).toBe("city City name");
    expect(parameterSchemasBuiltCount()).toBe(before);
    void tool.parameters;
    expect(parameterSchemasBuiltCount()).toBe(before + 1);
  });

  it("enumerating the deferred names of 10,000 tools builds no schema", async () => {
    const many: AnyTool[] = Array.from({ length: 10_000 }, (_, i) =>
      defineTool({
        name: `tool_${i}`,
        description: `Does job number ${i}.`,
        parameters: z.object({ id: z.string().describe("which item") }),
        output: { schema: z.string(), render: (v: string) => v },
        execute: () => "ok",
      }),
    );
    const registry = new Registry<AnyTool>({ kind: "tool" });
    registry.register(GLOBAL_LAYER, { name: "many", enumerate: () => many });
    const before = parameterSchemasBuiltCount();
    const snapshot = await registry.snapshot([]);
    const session = new DeferSession();
    const plan = session.plan(
      snapshot.entries.map((e) => entryFromTool(e.entry, e.namespace)),
      { mode: "threshold", threshold: 40, resident: ["tool_1"] },
    );
    expect(plan.deferred).toHaveLength(9_999);
    const byName = new Map(many.map((t) => [t.name, t]));
    const search = toolSearchTool(session, () => "");
    const list = decorateTools("openai-chat", plan, (name) => projectTool(byName.get(name) ?? search));
    expect(list.hint).toContain("tool_9999");
    expect(session.search({ query: "job number 4242" }).hits[0]?.name).toBe("tool_4242");
    // Only the resident tool and tool_search were rendered, so only their schemas were built.
    expect(list.tools).toHaveLength(2);
    expect(parameterSchemasBuiltCount() - before).toBe(2);
  });
});

describe("ticket_status selection cases", () => {
  const distractors = [
    ...tools,
    { name: "ticket_create", description: "Create a new support ticket with a summary and a priority." },
    { name: "ticket_comment", description: "Add a comment to an existing support ticket." },
  ];

  it("should-select finds it in the top k; should-not-select does not rank it confidently", () => {
    const tool = ticketStatusTool(new TicketStore());
    for (const catalog of [[], tools, distractors]) {
      const check = selectionCheck(tool, catalog);
      expect(check.cases.map((c) => [c.expect, c.ok])).toEqual([
        ["select", true],
        ["not-select", true],
      ]);
      expect(check.ok).toBe(true);
    }
  });

  it("the check can fail: a tool described for a different job is not selected", () => {
    const tool = ticketStatusTool(new TicketStore());
    const check = selectionCheck(tool, [], { threshold: 0 });
    expect(check.cases[1]?.ok).toBe(false);
  });
});
