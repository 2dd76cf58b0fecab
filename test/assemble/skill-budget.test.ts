// Under a tight catalog budget the model still learns every skill's name: the listing keeps all
// names (with short descriptions, or none and one line saying so) before it drops any, drops only
// when the names alone do not fit (saying how many), and a cut description always keeps more of
// its own text than its marker takes.
import { afterEach, describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/toolplane.js";
import { CUT_MARKER } from "../../src/render/index.js";
import { tempProject } from "../helpers/tmp.js";

const planes: Toolplane[] = [];
afterEach(async () => {
  for (const plane of planes.splice(0)) await plane.close();
});

const NAMES = Array.from({ length: 24 }, (_, i) => `skill-number-${String(i + 1).padStart(2, "0")}`);

async function open(chars: number) {
  const files: Record<string, string> = {};
  for (const name of NAMES)
    files[`.toolplane/skills/${name}/SKILL.md`] =
      `---\nname: ${name}\ndescription: Does job ${name} for the project, with care for every detail the user gives.\n---\nbody\n`;
  const p = tempProject(files);
  const plane = await Toolplane.open({
    cwd: p.repo,
    env: p.bareEnv,
    set: [`catalog.budget.chars=${chars}`],
    bundledSkills: null,
  });
  planes.push(plane);
  const catalog = await plane.catalog("anthropic");
  const listing = catalog.attachments.find((a) => a.kind === "skills")?.text ?? "";
  return { catalog, lines: listing.split("\n") };
}

/** Every description cut in the listing keeps at least as much of its text as the marker is long. */
function cutsKeepText(lines: string[]): boolean {
  return lines
    .filter((l) => l.endsWith(CUT_MARKER))
    .every((l) => l.slice(l.indexOf(": ") + 2, -CUT_MARKER.length).length >= CUT_MARKER.length);
}

describe("the skill listing under the catalog budget", () => {
  it("1,500 characters and 24 skills: every name listed, no description shown as a bare marker", async () => {
    const { catalog, lines } = await open(1500);
    for (const name of NAMES)
      expect(lines.some((l) => l === `- ${name}` || l.startsWith(`- ${name}: `))).toBe(true);
    expect(catalog.report.omitted).toEqual([]);
    expect(lines).toContain(
      "(descriptions left out here: the catalog budget; the skill tool loads a skill by name)",
    );
    expect(lines.some((l) => l.endsWith(`: ${CUT_MARKER}`))).toBe(false);
    expect(cutsKeepText(lines)).toBe(true);
    expect(catalog.budget.chars.used).toBeLessThanOrEqual(1500);
    // the report lists each left-out description, kept: 0
    expect(catalog.report.cut.filter((c) => NAMES.includes(c.name)).every((c) => c.kept === 0)).toBe(true);
  });

  it("with more room, every skill keeps a description, cut ones with text before their marker", async () => {
    const { catalog, lines } = await open(4000);
    expect(catalog.report.omitted).toEqual([]);
    expect(lines.filter((l) => /^- skill-number-\d\d: ./.test(l))).toHaveLength(24);
    expect(cutsKeepText(lines)).toBe(true);
  });

  it("names dropped only when the names alone do not fit, with the marker saying how many", async () => {
    const { catalog, lines } = await open(700);
    const left = catalog.report.omitted.filter((n) => NAMES.includes(n));
    expect(left.length).toBeGreaterThan(0);
    expect(lines.at(-1)).toBe(
      `(${left.length} more skills not listed here: the catalog budget left them out)`,
    );
    expect(catalog.budget.chars.used).toBeLessThanOrEqual(700);
  });
});
