// doctor along the CLI: a description cut at catalog.descriptionMaxChars is told apart from a cut
// that fits the budget, and the same skill kept in two roots is not an override.
import { describe, expect, it } from "vitest";
import type { DoctorCheck } from "../../src/doctor/types.js";
import { sandboxSupport } from "../../src/tools/sandbox/bwrap.js";
import { runCli } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

function doctor(files: Record<string, string>, set: string[] = []) {
  const p = tempProject(files);
  const r = runCli(["doctor", "--cwd", p.repo, "--json", ...set.flatMap((s) => ["--set", s])], {
    env: p.bareEnv,
  });
  const report = JSON.parse(r.stdout) as { checks: DoctorCheck[] };
  const byId = new Map(report.checks.map((c) => [`${c.station}/${c.check}`, c]));
  return { code: r.code, byId, p };
}

const LONG = "Reads a thing carefully. ".repeat(20).trim(); // ~500 chars
const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nBody.\n`;

describe("doctor: over-budget names what cut a description", () => {
  it("a cut at catalog.descriptionMaxChars says so, and its fix names the key", () => {
    const { byId } = doctor({ ".claude/skills/long/SKILL.md": skill("long", LONG) }, [
      "catalog.descriptionMaxChars=80",
    ]);
    const c = byId.get("render/over-budget")!;
    expect(c.ok).toBe(false);
    expect(c.findings).toContainEqual(
      expect.stringMatching(/"long" cut from \d+ to \d+ chars \(-\d+\) at catalog.descriptionMaxChars/),
    );
    expect(c.fix).toMatch(/^raise catalog.descriptionMaxChars \(now 80\)/);
    expect(c.fix).not.toContain("catalog.budget.chars");
  });

  it("a cut to fit the budget says so, and its fix names the budget", () => {
    const { byId } = doctor({ ".claude/skills/long/SKILL.md": skill("long", LONG) }, [
      "catalog.budget.chars=900",
    ]);
    const c = byId.get("render/over-budget")!;
    expect(c.ok).toBe(false);
    expect(c.findings?.some((f) => /cut from \d+ to \d+ chars \(-\d+\) to fit the budget/.test(f))).toBe(
      true,
    );
    expect(c.fix).toMatch(/raise catalog.budget.chars/);
    expect(c.fix).not.toContain("descriptionMaxChars");
  });
});

describe("doctor and skills: one skill kept in .agents/skills and .claude/skills", () => {
  const same = skill("demo", "A demo skill for tests.");

  it("identical copies are not an override", () => {
    const { byId, code } = doctor({
      ".agents/skills/demo/SKILL.md": same,
      ".agents/skills/demo/notes.md": "notes\n",
      ".claude/skills/demo/SKILL.md": same,
      ".claude/skills/demo/notes.md": "notes\n",
    });
    expect(byId.get("register/same-name-override")).toMatchObject({ ok: true });
    // nothing else fails either; without bubblewrap the sandbox check does, and so the exit code
    const failing = [...byId].filter(([, c]) => !c.ok).map(([id]) => id);
    expect(failing).toEqual(sandboxSupport().available ? [] : ["tools/sandbox"]);
    expect(code).toBe(failing.length === 0 ? 0 : 1);
  });

  it("copies that differ (in SKILL.md or a bundled file) still are", () => {
    const differs = doctor({
      ".agents/skills/demo/SKILL.md": same,
      ".claude/skills/demo/SKILL.md": skill("demo", "A demo skill, an older text."),
    });
    expect(differs.byId.get("register/same-name-override")?.ok).toBe(false);
    expect(differs.byId.get("register/same-name-override")?.detail).toMatch(/skill "demo" .* is shadowed/);
    const bundle = doctor({
      ".agents/skills/demo/SKILL.md": same,
      ".agents/skills/demo/notes.md": "notes, newer\n",
      ".claude/skills/demo/SKILL.md": same,
      ".claude/skills/demo/notes.md": "notes\n",
    });
    expect(bundle.byId.get("register/same-name-override")?.ok).toBe(false);
  });

  it("`toolplane skills` says the shadowed one is an identical copy", () => {
    const p = tempProject({ ".agents/skills/demo/SKILL.md": same, ".claude/skills/demo/SKILL.md": same });
    const r = runCli(["skills", "--cwd", p.repo], { env: p.bareEnv });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /shadowed: demo .*\.claude\/skills\/demo\/SKILL\.md .*an identical copy, not a conflict\)/,
    );
  });
});
