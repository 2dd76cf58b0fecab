import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolProjection } from "../../src/declare/project.js";
import { nativeSearchTool } from "../../src/defer/native.js";
import { CatalogRenderer, RenderMemo, renderCatalog, supportedProviders } from "../../src/render/index.js";

const tool = (i: number, description: string): ToolProjection => ({
  name: `tool_${i}`,
  description,
  parameters: {
    type: "object",
    properties: { q: { type: "string" }, n: { type: "integer" } },
    required: ["q"],
  },
});
const text = (n: number, salt: number) =>
  Array.from({ length: n }, (_, i) => `w${(i + salt) % 7}`)
    .join(" ")
    .slice(0, n);

describe("incremental re-render", () => {
  it("gives exactly the bytes a full render gives, whatever changes", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...supportedProviders()),
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 30 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 300 })), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 200, max: 8000 }),
        (provider, lengths, edits, chars) => {
          const skills = [
            { name: "pdf", description: "Read PDFs." },
            { name: "long", description: text(280, 3) },
          ];
          let tools = lengths.map((n, i) => tool(i, text(n, i)));
          const renderer = new CatalogRenderer();
          const input = () => ({ provider, tools, skills, budget: { chars, descriptionMaxChars: 250 } });
          expect(JSON.stringify(renderer.render(input()))).toBe(
            JSON.stringify(renderCatalog({ ...input(), memo: new RenderMemo() })),
          );
          edits.forEach(([at, n], k) => {
            const i = at % tools.length;
            tools = tools.slice();
            tools[i] = tool(i, text(n, k + 11));
            const quick = renderer.render(input());
            const full = renderCatalog({ ...input(), memo: new RenderMemo() });
            expect(JSON.stringify(quick)).toBe(JSON.stringify(full));
          });
        },
      ),
      { numRuns: 120 },
    );
  });
});

describe("incremental re-render of a native deferral tail", () => {
  it("gives exactly the bytes a full render gives when deferred tools change in place", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("anthropic" as const, "openai-responses" as const),
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 30 }),
        fc.array(fc.tuple(fc.boolean(), fc.nat(), fc.integer({ min: 0, max: 300 })), {
          minLength: 1,
          maxLength: 8,
        }),
        (provider, residentLengths, deferredLengths, edits) => {
          let tools = residentLengths.map((n, i) => tool(i, text(n, i)));
          // deferred names overlap no resident name, and one is written so the provider renames it
          let deferred = deferredLengths.map((n, i) => ({
            ...tool(100 + i, text(n, i + 5)),
            name: i === 0 ? "bad.name" : `tool_${100 + i}`,
          }));
          const renderer = new CatalogRenderer();
          const searchTool = nativeSearchTool(provider)!;
          const input = () => ({
            provider,
            tools,
            native: { tools: deferred, searchTool },
            budget: { chars: 4000, descriptionMaxChars: 200 },
          });
          expect(JSON.stringify(renderer.render(input()))).toBe(
            JSON.stringify(renderCatalog({ ...input(), memo: new RenderMemo() })),
          );
          edits.forEach(([inTail, at, n], k) => {
            if (inTail) {
              const i = at % deferred.length;
              deferred = deferred.slice();
              // now and then a schema the provider converts (its $schema removed): other notes
              const parameters =
                n % 2 === 1
                  ? { ...deferred[i]!.parameters, $schema: "http://json-schema.org/draft-07/schema#" }
                  : tool(0, "").parameters;
              deferred[i] = { ...deferred[i]!, description: text(n, k + 17), parameters };
            } else {
              const i = at % tools.length;
              tools = tools.slice();
              tools[i] = tool(i, text(n, k + 11));
            }
            const quick = renderer.render(input());
            const full = renderCatalog({ ...input(), memo: new RenderMemo() });
            expect(JSON.stringify(quick)).toBe(JSON.stringify(full));
            expect(quick.report.conversions).toEqual(full.report.conversions);
          });
        },
      ),
      { numRuns: 120 },
    );
  });
});

describe("incremental re-render and arrays edited in place", () => {
  it("sees a tool replaced inside the same array", () => {
    const tools = [tool(0, "first"), tool(1, "second")];
    const renderer = new CatalogRenderer();
    const a = renderer.render({ provider: "anthropic", tools, budgetChars: 8000 });
    tools[1] = tool(1, "changed");
    const b = renderer.render({ provider: "anthropic", tools, budgetChars: 8000 });
    expect(b.prefixHash).not.toBe(a.prefixHash);
    expect((b.tools[1] as { description: string }).description).toBe("changed");
  });
});

describe("incremental re-render over many tools", () => {
  it("gives the full render's prefixHash whichever block of tools changes", () => {
    // prefixHash keeps its running state every 1,024 tools: changes around those edges
    let tools = Array.from({ length: 2600 }, (_, i) => tool(i, text(20 + (i % 40), i)));
    const renderer = new CatalogRenderer();
    const input = () => ({ provider: "mcp" as const, tools, budgetChars: 1e7 });
    renderer.render(input());
    for (const [k, at] of [2599, 0, 1023, 1024, 2047, 2048, 1500, 3].entries()) {
      tools = tools.slice();
      tools[at] = tool(at, text(30, k + 100));
      if (k % 3 === 2) tools[(at + 1100) % tools.length] = tool((at + 1100) % tools.length, text(9, k));
      const quick = renderer.render(input());
      expect(quick.prefixHash).toBe(renderCatalog({ ...input(), memo: new RenderMemo() }).prefixHash);
    }
  });
});
