import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/index.js";
import type { ToolProjection } from "../../src/declare/project.js";
import { GLOBAL_LAYER } from "../../src/register/index.js";
import {
  type Catalog,
  CUT_MARKER,
  DEFERRED_HEADER,
  notListed,
  RenderMemo,
  renderCatalog,
  SKILLS_HEADER,
  skillsNotListed,
  supportedProviders,
} from "../../src/render/index.js";
import { tempProject } from "../helpers/tmp.js";
import { simpleTool } from "../helpers/tools.js";

const words = (n: number, seed = "word") =>
  Array.from({ length: n }, (_, i) => `${seed}${i % 10}`)
    .join(" ")
    .slice(0, n);
const tool = (name: string, description: string): ToolProjection => ({
  name,
  description,
  parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
});
const descriptionOf = (c: Catalog, i: number) => {
  const t = c.tools[i] as Record<string, unknown>;
  return String(((t.function ?? t) as Record<string, unknown>).description);
};
const catalogText = (c: Catalog) =>
  c.tools
    .map((t) => {
      const x = ((t as Record<string, unknown>).function ?? t) as Record<string, unknown>;
      return `${x.name}${x.description}`;
    })
    .join("") + c.system;

describe("catalog budget", () => {
  it("within budget nothing is cut, and used is the length of the catalog text", () => {
    const c = renderCatalog({
      provider: "anthropic",
      tools: [tool("a", "short"), tool("b", words(300))],
      budgetChars: 8000,
    });
    expect(c.report.cut).toEqual([]);
    expect(c.budget).toMatchObject({ limit: 8000, unit: "chars", truncated: false });
    expect(c.budget.used).toBe(catalogText(c).length);
  });

  it("water-fills: short descriptions stay whole, long ones are cut to one cap with a marker", () => {
    const tools = [
      tool("t1", words(20)),
      tool("t2", words(60)),
      tool("t3", words(400)),
      tool("t4", words(900)),
    ];
    const c = renderCatalog({ provider: "openai-chat", tools, budgetChars: 600 });
    expect(c.tools).toHaveLength(4);
    expect(descriptionOf(c, 0)).toBe(tools[0]!.description);
    expect(descriptionOf(c, 1)).toBe(tools[1]!.description);
    const d3 = descriptionOf(c, 2);
    const d4 = descriptionOf(c, 3);
    expect(d3.endsWith(CUT_MARKER)).toBe(true);
    expect(d4.endsWith(CUT_MARKER)).toBe(true);
    // the same cap for both, on a word boundary
    expect(Math.abs(d3.length - d4.length)).toBeLessThan(8);
    expect(tools[2]!.description.startsWith(`${d3.slice(0, -CUT_MARKER.length)} `)).toBe(true);
    expect(c.report.cut).toEqual([
      { name: "t3", original: 400, kept: d3.length, by: "budget" },
      { name: "t4", original: 900, kept: d4.length, by: "budget" },
    ]);
    expect(c.budget.truncated).toBe(true);
    expect(c.budget.used).toBe(catalogText(c).length);
    expect(c.budget.used).toBeLessThanOrEqual(600);
    // water-filling uses the room: one more character per cut entry would not fit
    expect(c.budget.used).toBeGreaterThan(600 - 2 * 20);
  });

  it("when even the names do not fit, says which entries were left out and how many", () => {
    const tools = Array.from({ length: 30 }, (_, i) => tool(`tool_number_${i}`, words(50)));
    const c = renderCatalog({
      provider: "anthropic",
      tools,
      skills: [{ name: "zeta", description: "z" }],
      deferred: ["later_one"],
      budgetChars: 300,
    });
    const shown = c.tools.map((t) => (t as { name: string }).name);
    expect(shown.length).toBeGreaterThan(0);
    expect(c.report.omitted.length).toBe(32 - shown.length);
    expect(new Set([...shown, ...c.report.omitted])).toEqual(
      new Set([...tools.map((t) => t.name), "zeta", "later_one"]),
    );
    // left out from the end: deferred first, then skills, then the last tools
    expect(c.report.omitted.slice(-2)).toEqual(["zeta", "later_one"]);
    expect(shown).toEqual(tools.slice(0, shown.length).map((t) => t.name));
    expect(c.budget.used).toBeLessThanOrEqual(300);
    expect(c.budget.truncated).toBe(true);
  });

  it("property: deferred names left out are counted in the text the model sees, within budget", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 200, max: 4000 }),
        fc.option(fc.integer({ min: 60, max: 1000 }), { nil: undefined }),
        (deferredCount, chars, tokens) => {
          const deferred = Array.from({ length: deferredCount }, (_, i) => `deferred_tool_${i}`);
          const c = renderCatalog({
            provider: "openai-chat",
            tools: [tool("resident", words(40))],
            deferred,
            budget: { chars, ...(tokens !== undefined ? { tokens } : {}) },
            memo: new RenderMemo(),
          });
          expect(c.budget.chars!.used).toBeLessThanOrEqual(chars);
          expect(c.budget.chars!.used).toBe(catalogText(c).length);
          if (c.budget.tokens) expect(c.budget.tokens.used).toBeLessThanOrEqual(c.budget.tokens.limit);
          const left = c.report.omitted.filter((n) => n.startsWith("deferred_tool_"));
          expect([...c.deferred, ...left].sort()).toEqual([...deferred].sort());
          if (left.length > 0 && c.system.includes(DEFERRED_HEADER))
            expect(c.system.endsWith(notListed(left.length))).toBe(true);
          if (left.length === 0) expect(c.system).not.toContain("not listed here");
        },
      ),
      { numRuns: 120 },
    );
  });

  it("property: skills left out are counted in the text the model sees, within budget", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 150, max: 3000 }),
        fc.option(fc.integer({ min: 60, max: 800 }), { nil: undefined }),
        (skillCount, deferredCount, chars, tokens) => {
          const skills = Array.from({ length: skillCount }, (_, i) => ({
            name: `skill-${i}`,
            description: words(12, `s${i}`),
          }));
          const deferred = Array.from({ length: deferredCount }, (_, i) => `deferred_tool_${i}`);
          const c = renderCatalog({
            provider: "anthropic",
            tools: [tool("resident", words(30))],
            skills,
            deferred,
            budget: { chars, ...(tokens !== undefined ? { tokens } : {}) },
            memo: new RenderMemo(),
          });
          expect(c.budget.chars!.used).toBeLessThanOrEqual(chars);
          expect(c.budget.chars!.used).toBe(catalogText(c).length);
          if (c.budget.tokens) expect(c.budget.tokens.used).toBeLessThanOrEqual(c.budget.tokens.limit);
          const left = c.report.omitted.filter((n) => n.startsWith("skill-"));
          const lines = c.system.split("\n");
          const listed = lines.filter((l) => l.startsWith("- skill-")).length;
          expect(listed + left.length).toBe(skillCount);
          if (left.length > 0 && c.system.includes(SKILLS_HEADER))
            expect(lines).toContain(skillsNotListed(left.length));
          if (left.length === 0) expect(c.system).not.toContain("more skill");
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a skill left out leaves a line the model reads, before the deferred part", () => {
    const skills = Array.from({ length: 40 }, (_, i) => ({ name: `skill-${i}`, description: words(30) }));
    const c = renderCatalog({
      provider: "anthropic",
      tools: [tool("resident", "r")],
      skills,
      budgetChars: 400,
    });
    const left = c.report.omitted.filter((n) => n.startsWith("skill-"));
    expect(left.length).toBeGreaterThan(0);
    expect(c.system.split("\n").at(-1)).toBe(
      `(${left.length} more skills not listed here: the catalog budget left them out)`,
    );
    expect(c.budget.used).toBeLessThanOrEqual(400);
  });

  it("caps any one description at catalog.descriptionMaxChars", () => {
    const c = renderCatalog({
      provider: "gemini",
      tools: [tool("a", words(2000))],
      budget: { chars: 100_000, descriptionMaxChars: 1024 },
    });
    expect(descriptionOf(c, 0).length).toBeLessThanOrEqual(1024);
    expect(descriptionOf(c, 0).endsWith(CUT_MARKER)).toBe(true);
    expect(c.report.cut).toEqual([
      { name: "a", original: 2000, kept: descriptionOf(c, 0).length, by: "descriptionMaxChars" },
    ]);
  });

  it("a token budget bounds the o200k count too", () => {
    const tools = Array.from({ length: 12 }, (_, i) => tool(`t${i}`, words(300 + i * 40, `token${i}x`)));
    const c = renderCatalog({ provider: "anthropic", tools, budget: { chars: 100_000, tokens: 400 } });
    expect(c.budget.unit).toBe("tokens");
    expect(c.budget.limit).toBe(400);
    expect(c.budget.used).toBeLessThanOrEqual(400);
    expect(c.budget.tokens!.used).toBe(c.budget.used);
    expect(c.report.cut.length).toBeGreaterThan(0);
    expect(c.tools).toHaveLength(12);
  });

  it("property: within budget, every name kept or listed, cuts marked and fair", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 25 }),
        fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 6 }),
        fc.integer({ min: 20, max: 6000 }),
        (toolLengths, skillLengths, limit) => {
          const tools = toolLengths.map((n, i) => tool(`t${i}`, words(n)));
          const skills = skillLengths.map((n, i) => ({ name: `s${i}`, description: words(n) }));
          const c = renderCatalog({
            provider: "openai-responses",
            tools,
            skills,
            budgetChars: limit,
            memo: new RenderMemo(),
          });
          expect(c.budget.used).toBeLessThanOrEqual(limit);
          expect(c.budget.used).toBe(catalogText(c).length);
          const kept = c.tools.map((t) => (t as { name: string }).name);
          expect(kept.length + skills.length + 0).toBeGreaterThanOrEqual(kept.length);
          expect(new Set([...kept, ...c.report.omitted, ...skills.map((s) => s.name)])).toEqual(
            new Set([...tools.map((t) => t.name), ...skills.map((s) => s.name)]),
          );
          const cap = c.budget.cap ?? Number.POSITIVE_INFINITY;
          c.tools.forEach((_, i) => {
            const d = descriptionOf(c, i);
            const original = tools[i]!.description;
            if (d !== original) {
              expect(d.endsWith(CUT_MARKER)).toBe(true);
              expect(d.length).toBeLessThanOrEqual(cap);
            } else expect(d.length <= cap || c.report.cut.every((x) => x.name !== tools[i]!.name)).toBe(true);
          });
          // fairness: no kept-whole description is longer than the cap
          for (const t of tools.slice(0, kept.length)) {
            if (!c.report.cut.some((x) => x.name === t.name))
              expect(t.description.length).toBeLessThanOrEqual(cap);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("system text and stability", () => {
  const tools = [tool("alpha", "first tool"), tool("beta", "second tool")];
  const skills = [
    { name: "pdf", description: "Read PDFs." },
    { name: "docx", description: "Edit Word files." },
  ];

  it("lists skills by name and deferred tools by name only under one hint line", () => {
    const c = renderCatalog({
      provider: "mcp",
      tools,
      skills,
      deferred: ["zz_tool", "aa_tool"],
      budgetChars: 8000,
    });
    expect(c.system).toBe(
      `Available skills (load one with the skill tool):\n- docx: Edit Word files.\n- pdf: Read PDFs.\n\n${DEFERRED_HEADER}\naa_tool, zz_tool`,
    );
    expect(c.deferred).toEqual(["aa_tool", "zz_tool"]);
  });

  it("the same inputs give the same bytes and hash, with or without a warm memo", () => {
    for (const provider of supportedProviders()) {
      const a = renderCatalog({ provider, tools, skills, budgetChars: 50, memo: new RenderMemo() });
      const memo = new RenderMemo();
      renderCatalog({ provider, tools, skills, budgetChars: 8000, memo });
      const b = renderCatalog({
        provider,
        tools: tools.map((t) => ({ ...t })),
        skills,
        budgetChars: 50,
        memo,
      });
      expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    }
  });

  it("prefixHash: a skill added changes it; attachments never do", () => {
    const base = renderCatalog({ provider: "anthropic", tools, skills, budgetChars: 8000 });
    const more = renderCatalog({
      provider: "anthropic",
      tools,
      skills: [...skills, { name: "xlsx", description: "Sheets." }],
      budgetChars: 8000,
    });
    const attached = renderCatalog({
      provider: "anthropic",
      tools,
      skills,
      budgetChars: 8000,
      attachments: [{ kind: "agents", text: "Connected servers: github. Time: 12:00." }],
    });
    expect(more.prefixHash).not.toBe(base.prefixHash);
    expect(attached.prefixHash).toBe(base.prefixHash);
    expect(attached.attachments).toEqual([
      { kind: "agents", text: "Connected servers: github. Time: 12:00." },
    ]);
    const reordered = renderCatalog({
      provider: "anthropic",
      tools: [...tools].reverse(),
      skills,
      budgetChars: 8000,
    });
    expect(reordered.prefixHash).not.toBe(base.prefixHash);
    const deferred = renderCatalog({
      provider: "anthropic",
      tools,
      skills,
      deferred: ["x"],
      budgetChars: 8000,
    });
    expect(deferred.prefixHash).not.toBe(base.prefixHash);
  });

  it("the rendered tools are frozen, so a caller cannot corrupt the memo", () => {
    const c = renderCatalog({ provider: "anthropic", tools, budgetChars: 8000 });
    expect(Object.isFrozen(c.tools[0])).toBe(true);
    expect(Object.isFrozen((c.tools[0] as { input_schema: object }).input_schema)).toBe(true);
    expect(Object.isFrozen(tools[0]!.parameters)).toBe(false);
  });

  it("renames tools a provider does not accept, apart from each other, and says so", () => {
    const c = renderCatalog({
      provider: "openai-chat",
      tools: [tool("math.sum", "a"), tool("math_sum", "b")],
      budgetChars: 8000,
    });
    const names = c.tools.map((t) => (t as { function: { name: string } }).function.name);
    expect(names).toEqual(["math_sum", "math_sum_2"]);
    expect(c.report.renamed).toEqual([
      { name: "math.sum", wireName: "math_sum" },
      { name: "math_sum", wireName: "math_sum_2" },
    ]);
  });
});

describe("prefixHash and configuration kinds", () => {
  const p = tempProject();
  const open = async (set: string[]) => {
    const plane = await Toolplane.open({ cwd: p.repo, env: p.env, set });
    plane.tools.register(GLOBAL_LAYER, {
      name: "extra",
      enumerate: () => [simpleTool("extra_tool", "x ".repeat(600))],
    });
    return plane;
  };
  const hash = async (set: string[]) => (await (await open(set)).catalog("anthropic")).prefixHash;

  it("a run-time key (tools.timeoutMs) leaves prefixHash unchanged", async () => {
    const base = await hash([]);
    expect(await hash(["tools.timeoutMs=5000"])).toBe(base);
    expect(await hash(["results.inlineMaxBytes=1000", "grep.maxMatches=3"])).toBe(base);
  });

  it("an assembly key changes it", async () => {
    const base = await hash([]);
    expect(await hash(["catalog.descriptionMaxChars=100"])).not.toBe(base);
    expect(await hash(['tools.disabled=["extra_tool"]'])).not.toBe(base);
    expect(await hash(["catalog.budget.chars=300"])).not.toBe(base);
  });
});
