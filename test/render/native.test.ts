import { describe, expect, it } from "vitest";
import type { ToolProjection } from "../../src/declare/project.js";
import { CatalogRenderer, RenderMemo, renderCatalog } from "../../src/render/index.js";

const tool = (name: string, description = `${name} does one thing`): ToolProjection => ({
  name,
  description,
  parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
});
const search = { type: "tool_search" };

describe("native deferred loading in the renderer", () => {
  const resident = [tool("alpha"), tool("beta")];
  const deferred = [tool("zeta"), tool("gamma.x")];

  it("puts the search tool, then the deferred tools with defer_loading, after the resident ones", () => {
    const c = renderCatalog({
      provider: "anthropic",
      tools: resident,
      native: { tools: deferred, searchTool: { type: "x", name: "s" }, headers: { h: "v" } },
      budgetChars: 8000,
    });
    expect(c.tools).toEqual([
      { name: "alpha", description: "alpha does one thing", input_schema: expect.any(Object) },
      { name: "beta", description: "beta does one thing", input_schema: expect.any(Object) },
      { type: "x", name: "s" },
      {
        name: "zeta",
        description: "zeta does one thing",
        input_schema: expect.any(Object),
        defer_loading: true,
      },
      {
        name: "gamma_x",
        description: "gamma.x does one thing",
        input_schema: expect.any(Object),
        defer_loading: true,
      },
    ]);
    expect(c.deferred).toEqual(["gamma.x", "zeta"]);
    expect(c.system).toBe("");
    expect(c.headers).toEqual({ h: "v" });
    expect(c.report.renamed).toEqual([{ name: "gamma.x", wireName: "gamma_x" }]);
  });

  it("deferred tools count against neither the budget nor prefixHash; only descriptionMaxChars caps them", () => {
    const base = { provider: "openai-responses" as const, tools: resident };
    const plain = renderCatalog({ ...base, budget: { chars: 8000, descriptionMaxChars: 30 } });
    const long = tool("zeta", "word ".repeat(100));
    const c = renderCatalog({
      ...base,
      native: { tools: [long], searchTool: search },
      budget: { chars: 8000, descriptionMaxChars: 30 },
    });
    expect(c.budget.chars.used).toBe(plain.budget.chars.used);
    expect(c.prefixHash).toBe(plain.prefixHash);
    expect((c.tools.at(-1) as { description: string }).description.length).toBeLessThanOrEqual(30);
    expect(c.report.cut).toEqual([
      { name: "zeta", original: 500, kept: expect.any(Number), by: "descriptionMaxChars" },
    ]);
    // a changed deferred tool changes the request but not the cached prefix
    const edited = renderCatalog({
      ...base,
      native: { tools: [tool("zeta", "other")], searchTool: search },
      budgetChars: 8000,
    });
    const first = renderCatalog({
      ...base,
      native: { tools: [tool("zeta")], searchTool: search },
      budgetChars: 8000,
    });
    expect(edited.prefixHash).toBe(first.prefixHash);
    expect(JSON.stringify(edited.tools)).not.toBe(JSON.stringify(first.tools));
  });

  it("an incremental re-render gives exactly what a full render gives", () => {
    const renderer = new CatalogRenderer();
    const native = { tools: deferred, searchTool: search };
    const input = (tools: ToolProjection[]) => ({
      provider: "openai-responses" as const,
      tools,
      native,
      budgetChars: 8000,
    });
    renderer.render(input(resident));
    const edited = [resident[0]!, tool("beta", "beta changed")];
    const quick = renderer.render(input(edited));
    expect(JSON.stringify(quick)).toBe(
      JSON.stringify(renderCatalog({ ...input(edited), memo: new RenderMemo() })),
    );
    const other = renderer.render({
      ...input(edited),
      native: { tools: [deferred[0]!], searchTool: search },
    });
    expect(other.deferred).toEqual(["zeta"]);
  });

  it("refuses deferred names and native deferral together", () => {
    expect(() =>
      renderCatalog({
        provider: "anthropic",
        tools: resident,
        deferred: ["x"],
        native: { tools: [], searchTool: search },
      }),
    ).toThrow(/not both/);
  });
});
