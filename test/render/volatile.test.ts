// catalog.volatile: the skill listing, deferred names and MCP servers' instructions as attachments
// (outside the system text and prefixHash), or put back into the system text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolProjection } from "../../src/declare/project.js";
import {
  type Catalog,
  CatalogRenderer,
  CUT_MARKER,
  DEFERRED_HEADER,
  RenderMemo,
  renderCatalog,
  SKILLS_HEADER,
  supportedProviders,
} from "../../src/render/index.js";
import { LISTING_RESERVE } from "../../src/render/volatile.js";

const tool = (i: number, description: string): ToolProjection => ({
  name: `tool_${i}`,
  description,
  parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
});
const words = (n: number, salt: number) =>
  Array.from({ length: n }, (_, i) => `w${(i + salt) % 7}`)
    .join(" ")
    .slice(0, n);
const tools = [tool(0, "Find things."), tool(1, "Change things.")];
const skills = [
  { name: "pdf", description: "Read PDFs." },
  { name: "docx", description: "Write Word files." },
];

describe('catalog.volatile: "attachments"', () => {
  it("a skill or a deferred name added changes the attachments, and not tools, system or prefixHash", () => {
    for (const provider of supportedProviders()) {
      const base = renderCatalog({ provider, tools, skills, deferred: ["zeta"], volatile: "attachments" });
      const more = renderCatalog({
        provider,
        tools,
        skills: [...skills, { name: "xlsx", description: "Sheets." }],
        deferred: ["zeta", "alpha"],
        volatile: "attachments",
      });
      expect(more.tools).toEqual(base.tools);
      expect(more.system).toBe("");
      expect(base.system).toBe("");
      expect(more.prefixHash).toBe(base.prefixHash);
      expect(more.attachments).not.toEqual(base.attachments);
      expect(more.attachments).toEqual([
        {
          kind: "skills",
          text: `${SKILLS_HEADER}\n- docx: Write Word files.\n- pdf: Read PDFs.\n- xlsx: Sheets.`,
        },
        { kind: "deferred", text: `${DEFERRED_HEADER}\nalpha, zeta` },
      ]);
      expect(more.deferred).toEqual(["alpha", "zeta"]);
      // the same input with the listing in the system text moves the hash, as it always did
      const inSystem = renderCatalog({ provider, tools, skills, deferred: ["zeta"], volatile: "system" });
      expect(inSystem.system).toBe([base.attachments[0]!.text, base.attachments[1]!.text].join("\n\n"));
      expect(inSystem.prefixHash).not.toBe(base.prefixHash);
      expect(inSystem.attachments).toEqual([]);
    }
  });

  it("over budget, skills' names come before tools' descriptions up to half the budget; past it the listing says what it left out", () => {
    const long = Array.from({ length: 6 }, (_, i) => tool(i, words(900, i)));
    const few = renderCatalog({
      provider: "anthropic",
      tools: long,
      budgetChars: 3000,
      volatile: "attachments",
    });
    expect(few.report.cut.length).toBeGreaterThan(0); // the tools alone were over: water-filled
    expect(3000 - few.budget.chars.used).toBeGreaterThanOrEqual(LISTING_RESERVE.chars);
    const many = Array.from({ length: 300 }, (_, i) => ({ name: `skill-${i}`, description: words(60, i) }));
    const render = (skills: typeof many) =>
      renderCatalog({
        provider: "anthropic",
        tools: long,
        skills,
        budgetChars: 3000,
        volatile: "attachments",
      });
    const full = render(many);
    // 300 names do not fit in half the budget: the tools keep the other half, the listing says how many it left out
    expect(full.budget.chars.used).toBeLessThanOrEqual(3000);
    const toolChars = (c: Catalog) =>
      c.tools.reduce(
        (n, t) =>
          n +
          (t as { name: string; description: string }).name.length +
          (t as { description: string }).description.length,
        0,
      );
    expect(toolChars(full)).toBeLessThanOrEqual(1500);
    expect(toolChars(full)).toBeGreaterThan(1300);
    const omitted = full.report.omitted;
    expect(omitted.length).toBeGreaterThan(150);
    const text = full.attachments.find((a) => a.kind === "skills")!.text;
    expect(
      text.endsWith(`(${omitted.length} more skills not listed here: the catalog budget left them out)`),
    ).toBe(true);
    // one skill more or less within the same reserve step: the tools' bytes and prefixHash stay
    const oneLess = render(many.slice(0, 299));
    expect(oneLess.tools).toEqual(full.tools);
    expect(oneLess.prefixHash).toBe(full.prefixHash);

    // with room left, the listing fills it and its last line says how many more exist
    const roomy = renderCatalog({
      provider: "anthropic",
      tools,
      skills: many,
      budgetChars: 2000,
      volatile: "attachments",
    });
    const listing = roomy.attachments.find((a) => a.kind === "skills")!.text;
    const left = roomy.report.omitted.length;
    expect(left).toBeGreaterThan(0);
    expect(listing.endsWith(`(${left} more skills not listed here: the catalog budget left them out)`)).toBe(
      true,
    );
    expect(roomy.budget.chars.used).toBeLessThanOrEqual(2000);
    expect(roomy.budget.truncated).toBe(true);
  });

  it("MCP servers' instructions: attachments in server order, each capped with the visible marker; in the system text they move the hash", () => {
    const instructions = [
      { server: "zeta", text: "Always pass a project id." },
      { server: "alpha", text: `Use search first. ${words(400, 1)}` },
    ];
    const budget = { chars: 8000, descriptionMaxChars: 120 };
    const c = renderCatalog({
      provider: "openai-chat",
      tools,
      skills,
      instructions,
      budget,
      volatile: "attachments",
    });
    const parts = c.attachments.filter((a) => a.kind === "mcp-instructions");
    expect(parts.map((p) => p.text.split("\n")[0])).toEqual([
      'Instructions from MCP server "alpha":',
      'Instructions from MCP server "zeta":',
    ]);
    expect(parts[0]!.text.endsWith(CUT_MARKER)).toBe(true);
    expect(c.report.cut).toContainEqual(
      expect.objectContaining({ name: "mcp:alpha", by: "descriptionMaxChars" }),
    );
    expect(c.prefixHash).toBe(
      renderCatalog({ provider: "openai-chat", tools, volatile: "attachments" }).prefixHash,
    );

    const sys = renderCatalog({
      provider: "openai-chat",
      tools,
      skills,
      instructions,
      budget,
      volatile: "system",
    });
    expect(sys.system).toContain('Instructions from MCP server "zeta":\nAlways pass a project id.');
    const other = renderCatalog({
      provider: "openai-chat",
      tools,
      skills,
      instructions: [{ server: "zeta", text: "Never pass a project id." }],
      budget,
      volatile: "system",
    });
    expect(other.prefixHash).not.toBe(sys.prefixHash);
  });

  it("the incremental renderer gives exactly the bytes a full render gives", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...supportedProviders()),
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 20 }),
        fc.array(
          fc.oneof(
            fc.tuple(fc.constant("tool" as const), fc.nat(), fc.integer({ min: 0, max: 300 })),
            fc.tuple(fc.constant("skill" as const), fc.nat(), fc.integer({ min: 0, max: 200 })),
            fc.tuple(fc.constant("defer" as const), fc.nat(), fc.nat()),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        fc.integer({ min: 200, max: 8000 }),
        (provider, lengths, edits, chars) => {
          let list = lengths.map((n, i) => tool(i, words(n, i)));
          let listed = [...skills];
          let deferred = ["d_1", "d_2"];
          const renderer = new CatalogRenderer();
          const input = () => ({
            provider,
            tools: list,
            skills: listed,
            deferred,
            budget: { chars, descriptionMaxChars: 250 },
            volatile: "attachments" as const,
          });
          const same = () =>
            expect(JSON.stringify(renderer.render(input()))).toBe(
              JSON.stringify(renderCatalog({ ...input(), memo: new RenderMemo() })),
            );
          same();
          for (const [kind, at, n] of edits) {
            if (kind === "tool") {
              const i = at % list.length;
              list = list.map((t, k) => (k === i ? tool(i, words(n, at)) : t));
            } else if (kind === "skill") listed = [...listed, { name: `s${at}`, description: words(n, at) }];
            else deferred = [...deferred, `d_${at}_${n}`];
            same();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
