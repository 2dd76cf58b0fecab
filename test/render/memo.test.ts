import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineTool } from "../../src/declare/define-tool.js";
import { projectTool, type ToolProjection } from "../../src/declare/project.js";
import { conversionsForTool } from "../../src/render/conversions.js";
import {
  adapterFor,
  CatalogRenderer,
  RenderMemo,
  renderCatalog,
  supportedProviders,
} from "../../src/render/index.js";

const tool = (name: string, description: string, extra: Record<string, unknown> = {}): ToolProjection => ({
  name,
  description,
  parameters: {
    type: "object",
    properties: { q: { type: "string", minLength: 1 }, n: { type: "integer", default: 2 }, ...extra },
    required: ["q"],
  },
});

describe("RenderMemo", () => {
  it("finds a new object with the same content, and not one whose content differs", () => {
    const memo = new RenderMemo();
    const a = tool("t", "reads");
    const entry = memo.entry(a);
    expect(memo.entry({ ...a, parameters: structuredClone(a.parameters) })).toBe(entry);
    expect(memo.entry(tool("t", "reads more"))).not.toBe(entry);
    expect(memo.entry(tool("t", "reads", { m: { type: "boolean" } }))).not.toBe(entry);
    expect(memo.entry(tool("u", "reads"))).not.toBe(entry);
    // key order is part of the content: it changes the serialised schema
    const reordered: ToolProjection = {
      ...a,
      parameters: { required: ["q"], type: "object", properties: a.parameters.properties },
    };
    expect(memo.entry(reordered)).not.toBe(entry);
  });

  it("a sealed schema is shared by the wire form; a caller's own schema of the same content is never frozen", () => {
    const memo = new RenderMemo();
    const sealed = defineTool({
      name: "t",
      description: "reads",
      parameters: { type: "object", properties: { q: { type: "string", description: "the query" } } },
      output: { schema: { type: "string" }, render: (v: string) => v },
      execute: () => "",
    });
    const first = projectTool(sealed);
    const anthropic = renderCatalog({ provider: "anthropic", tools: [first], budgetChars: 1e6 });
    const wire = anthropic.tools[0] as { input_schema: { properties: unknown } };
    // the converted schema (without $schema) is frozen in place: its properties are the seal's
    expect(wire.input_schema.properties).toBe(first.parameters.properties);
    renderCatalog({ provider: "openai-chat", tools: [first], memo, budgetChars: 1e6 });
    expect(JSON.stringify(wire)).toBe(
      JSON.stringify(renderCatalog({ provider: "anthropic", tools: [first], budgetChars: 1e6 }).tools[0]),
    );
    // the same content as a caller's plain object: found by content, and converted for the
    // providers the memo has not converted it for yet from the caller's object (Anthropic's
    // conversion shares its nodes), which must stay the caller's (not frozen)
    const mine: ToolProjection = { ...first, parameters: JSON.parse(JSON.stringify(first.parameters)) };
    expect(memo.entry(mine)).toBe(memo.entry(first));
    for (const provider of supportedProviders())
      renderCatalog({ provider, tools: [mine], memo, budgetChars: 1e6 });
    expect(Object.isFrozen(mine.parameters)).toBe(false);
    expect(Object.isFrozen(mine.parameters.properties)).toBe(false);
    expect(Object.isFrozen((mine.parameters.properties as Record<string, object>).q)).toBe(false);
  });

  it("a small memo that keeps evicting gives the bytes a fresh one gives", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...supportedProviders()),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 3 })), {
          minLength: 1,
          maxLength: 40,
        }),
        (provider, picks) => {
          const small = new RenderMemo(3);
          for (let k = 0; k < picks.length; k++) {
            const tools = picks
              .slice(0, k + 1)
              .map(([n, v]) => tool(`t${n}`, `version ${v}`, v % 2 ? { m: { const: v } } : {}));
            const unique = [...new Map(tools.map((t) => [t.name, t])).values()];
            const input = { provider, tools: unique, budgetChars: 60 };
            expect(JSON.stringify(renderCatalog({ ...input, memo: small }))).toBe(
              JSON.stringify(renderCatalog({ ...input, memo: new RenderMemo() })),
            );
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("report.conversions lists each tool's conversion notes in order, after re-renders too", () => {
    const tools = [
      tool("a", "first", { when: { type: "string", format: "date-time" } }),
      tool("b", "second"),
      tool("c", "third", { pick: { oneOf: [{ type: "string" }, { type: "number" }] } }),
    ];
    for (const provider of supportedProviders()) {
      const adapter = adapterFor(provider);
      const expected = (list: readonly ToolProjection[]) =>
        list.flatMap((t) => adapter.convert(t.parameters).notes.map((n) => ({ tool: t.name, ...n })));
      const renderer = new CatalogRenderer();
      const first = renderer.render({ provider, tools, budgetChars: 8000 });
      expect(first.report.conversions).toEqual(expected(tools));
      const edited = [
        tools[0]!,
        tool("b", "second", { extra: { type: "string", pattern: "^x" } }),
        tools[2]!,
      ];
      const second = renderer.render({ provider, tools: edited, budgetChars: 8000 });
      expect(second.report.conversions).toEqual(expected(edited));
      // the first catalog's list is its own, made from the tools it rendered
      expect(first.report.conversions).toEqual(expected(tools));
      expect(adapter.convert(tools[0]!.parameters, { notes: false }).schema).toEqual(
        adapter.convert(tools[0]!.parameters).schema,
      );
    }
  });

  it("one tool's conversions, asked for alone, are its entries of the whole list", () => {
    const tools = [tool("a", "x", { w: { type: "string", format: "uri" } }), tool("b", "y"), tool("c", "z")];
    for (const provider of supportedProviders()) {
      const fresh = () => renderCatalog({ provider, tools, budgetChars: 8000, memo: new RenderMemo() });
      for (const name of ["a", "b", "c", "missing"]) {
        const alone = conversionsForTool(fresh().report.conversions, name);
        expect(alone).toEqual(fresh().report.conversions.filter((c) => c.tool === name));
        expect(conversionsForTool([...fresh().report.conversions], name)).toEqual(alone);
      }
    }
  });

  it("keeps an entry's last 16 wire forms, dropping the oldest first, across providers", () => {
    const memo = new RenderMemo();
    const t = tool("t", "a description long enough to be cut at many lengths ".repeat(4));
    const entry = memo.entry(t);
    const anthropic = adapterFor("anthropic");
    const chat = adapterFor("openai-chat");
    const wireAt = (kept: number, adapter = anthropic) =>
      memo.wire(entry, adapter, memo.schema(entry, adapter, t.parameters), "t", t.description.slice(0, kept));
    const first = wireAt(10, chat);
    const made = Array.from({ length: 15 }, (_, i) => wireAt(20 + i));
    // 16 forms: each is found again as it was made, whichever provider made it
    expect(wireAt(10, chat)).toBe(first);
    for (const [i, w] of made.entries()) expect(wireAt(20 + i)).toBe(w);
    // a 17th drops the oldest (the first), and then the next oldest
    const newest = wireAt(99);
    expect(wireAt(99)).toBe(newest);
    expect(wireAt(20)).toBe(made[0]);
    const again = wireAt(10, chat);
    expect(again).not.toBe(first);
    expect(again.wire).toEqual(first.wire);
    expect(again.digest).toBe(first.digest);
    // the re-made first form pushed out made[0], the oldest left
    expect(wireAt(21)).toBe(made[1]);
    expect(wireAt(20)).not.toBe(made[0]);
  });
});
