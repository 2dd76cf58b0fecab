import { afterEach, describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/toolplane.js";
import { budgetEntries, budgetTotals } from "../../src/inspect/budget-entries.js";
import { GLOBAL_LAYER } from "../../src/register/index.js";
import { PROVIDERS } from "../../src/render/index.js";
import { tempProject } from "../helpers/tmp.js";
import { simpleTool } from "../helpers/tools.js";

const planes: Toolplane[] = [];
afterEach(async () => {
  for (const p of planes.splice(0)) await p.close();
});

function skill(name: string, description: string): Record<string, string> {
  return {
    [`.toolplane/skills/${name}/SKILL.md`]: `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\nbody\n`,
  };
}

async function open(set: string[]): Promise<Toolplane> {
  const p = tempProject({
    ...skill(
      "pdf-tools",
      `Extract text and tables from PDF files. ${"Fill forms, merge and split documents. ".repeat(8)}`,
    ),
    ...skill("csv-clean", "Clean CSV files: fix encodings, trim cells, dedupe rows."),
    ...skill(
      "release-notes",
      `Write release notes from a git log. ${"Group by area, link issues. ".repeat(10)}`,
    ),
  });
  const plane = await Toolplane.open({ cwd: p.repo, env: p.env, set, bundledSkills: null });
  plane.tools.register(GLOBAL_LAYER, {
    name: "extra",
    enumerate: () => [
      simpleTool(
        "weather_lookup",
        `Weather forecast for a city. ${"Hourly and daily, with alerts. ".repeat(12)}`,
      ),
    ],
  });
  planes.push(plane);
  return plane;
}

describe("the budget, piece by piece", () => {
  it.each(["system", "attachments"])(
    "adds up to the catalog's own chars and tokens for every provider, cuts included (catalog.volatile=%s)",
    async (volatile) => {
      const plane = await open([
        "catalog.budget.chars=1400",
        "catalog.budget.tokens=5000",
        `catalog.volatile=${volatile}`,
      ]);
      for (const provider of PROVIDERS) {
        const catalog = await plane.catalog(provider);
        const entries = budgetEntries(catalog);
        const totals = budgetTotals(entries);
        expect(totals.chars, provider).toBe(catalog.budget.chars.used);
        expect(totals.tokens, provider).toBe(catalog.budget.tokens?.used);
        // the budget had to cut, and every cut of the report is drawn on its own entry
        expect(catalog.report.cut.length, provider).toBeGreaterThan(0);
        const drawn = entries.filter((e) => e.cut).map((e) => ({ name: e.name, ...e.cut }));
        expect(drawn, provider).toEqual(catalog.report.cut.map((c) => ({ ...c })));
        // under attachments the skills get what the tools left: those that fit, in order
        const skills = entries.filter((e) => e.kind === "skill").map((e) => e.name);
        const all = ["csv-clean", "pdf-tools", "release-notes"];
        if (volatile === "system") expect(skills, provider).toEqual(all);
        else expect(all.slice(0, skills.length), provider).toEqual(skills);
      }
    },
  );

  it("counts deferred names in the system text, and leaves natively deferred tools out of the sums", async () => {
    const plane = await open(["defer.threshold=2", "defer.native=true"]);
    const names = await plane.catalog("openai-chat");
    expect(names.deferred.length).toBeGreaterThan(0);
    const namesEntries = budgetEntries(names);
    expect(namesEntries.some((e) => e.kind === "deferred")).toBe(true);
    expect(budgetTotals(namesEntries).chars).toBe(names.budget.chars.used);

    const native = await plane.catalog("anthropic");
    expect(native.report.deferral?.form).toBe("native");
    const entries = budgetEntries(native);
    const uncounted = entries.filter((e) => !e.counted);
    // the provider's search tool, then each deferred tool in full
    expect(uncounted).toHaveLength(native.deferred.length + 1);
    expect(uncounted.every((e) => e.kind === "native")).toBe(true);
    expect(budgetTotals(entries).chars).toBe(native.budget.chars.used);
  });
});
