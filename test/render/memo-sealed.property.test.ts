import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineTool } from "../../src/declare/define-tool.js";
import { projectTool, type ToolProjection } from "../../src/declare/project.js";
import { RenderMemo, renderCatalog, supportedProviders } from "../../src/render/index.js";

// A sealed tool's first wire form is built on its frozen schema and serialised whole; any other
// form (a cut description) is spliced from the schema's JSON; a caller's plain schema goes the
// splice way from the start. All of them must be the same bytes, and so the same prefixHash.
const param = fc.oneof(
  fc.record({ type: fc.constant("string"), description: fc.string({ maxLength: 30 }) }),
  fc.record({
    type: fc.constant("integer"),
    minimum: fc.constantFrom(-Number.MAX_SAFE_INTEGER, 0, 1),
    maximum: fc.constantFrom(Number.MAX_SAFE_INTEGER, 100),
  }),
  fc.record({ type: fc.constant("array"), items: fc.record({ type: fc.constant("number") }) }),
);
const toolArb = fc.record({
  description: fc.string({ minLength: 1, maxLength: 120 }).filter((d) => d.trim() !== ""),
  properties: fc.dictionary(fc.constantFrom("q", "n", "mode", "limit", "path"), param, { maxKeys: 4 }),
  withSchema: fc.boolean(),
});

describe("RenderMemo with sealed schemas", () => {
  it("property: a sealed tool renders the bytes its plain copy renders, whole and cut, for every provider", () => {
    fc.assert(
      fc.property(fc.array(toolArb, { minLength: 1, maxLength: 5 }), (specs) => {
        const sealed = specs.map((s, i) =>
          projectTool(
            defineTool({
              name: `tool_${i}`,
              description: s.description,
              parameters: {
                ...(s.withSchema ? { $schema: "http://json-schema.org/draft-07/schema#" } : {}),
                type: "object",
                properties: s.properties,
              },
              output: { schema: { type: "string" }, render: (v: string) => v },
              execute: () => "",
            }),
          ),
        );
        const plain: ToolProjection[] = sealed.map((t) => ({
          ...t,
          parameters: JSON.parse(JSON.stringify(t.parameters)),
        }));
        for (const provider of supportedProviders()) {
          const memo = new RenderMemo();
          for (const budgetChars of [1e6, 400, 120]) {
            const a = renderCatalog({ provider, tools: sealed, memo, budgetChars });
            const b = renderCatalog({ provider, tools: plain, memo: new RenderMemo(), budgetChars });
            expect(JSON.stringify(a.tools)).toBe(JSON.stringify(b.tools));
            expect(a.prefixHash).toBe(b.prefixHash);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
