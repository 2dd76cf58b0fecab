import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/toolplane.js";
import { runCli } from "../helpers/cli.js";
import { listingOf } from "../helpers/listing.js";
import { tempProject } from "../helpers/tmp.js";

const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nbody\n`;

/** Anchors of anchors: 9^6 values once expanded (a "billion laughs" in YAML). */
const ALIAS_BOMB = [
  "---",
  "name: bomb",
  "description: &a [x, x, x, x, x, x, x, x, x]",
  "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
  "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
  "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
  "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]",
  "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]",
  "---",
  "body",
  "",
].join("\n");

describe("one bad skill file is that skill's problem", () => {
  it("a YAML alias bomb: Toolplane.open, the catalog and the skills view work; the file is named", async () => {
    const p = tempProject({
      ".toolplane/skills/bomb/SKILL.md": ALIAS_BOMB,
      ".claude/skills/fine/SKILL.md": skill("fine", "A fine skill."),
    });
    const plane = await Toolplane.open({ cwd: p.repo, env: p.env, bundledSkills: null });
    try {
      const view = await plane.skillsView();
      expect(view.skills.map((s) => s.name)).toEqual(["fine"]);
      expect(view.problems).toEqual([
        {
          path: path.join(p.repo, ".toolplane/skills/bomb/SKILL.md"),
          errors: [expect.stringMatching(/^frontmatter: line 2: uses YAML aliases too much/)],
        },
      ]);
      const catalog = await plane.catalog("anthropic");
      expect(listingOf(catalog)).toContain("fine");
      expect(catalog.incomplete).toBe(false);
    } finally {
      await plane.close();
    }
    const validate = runCli(["skills", "validate", ".toolplane/skills/bomb", "--json"], {
      cwd: p.repo,
      env: p.env,
    });
    expect(validate.code).toBe(1);
    expect(JSON.parse(validate.stdout)[0].errors[0]).toMatch(/YAML aliases/);
  });

  it("a FIFO named SKILL.md is refused without blocking: every command still answers", () => {
    const p = tempProject({ ".toolplane/skills/fine/SKILL.md": skill("fine", "A fine skill.") });
    const fifo = path.join(p.repo, ".toolplane/skills/pipe/SKILL.md");
    execFileSync("mkdir", ["-p", path.dirname(fifo)]);
    execFileSync("mkfifo", [fifo]);
    const opts = { cwd: p.repo, env: p.env, timeoutMs: 20_000 };
    const skills = runCli(["skills", "--json"], opts);
    expect(skills.code).toBe(0);
    const view = JSON.parse(skills.stdout);
    expect(view.skills.map((s: { name: string }) => s.name)).toEqual(["fine"]);
    expect(view.problems).toEqual([
      {
        path: fifo,
        errors: ["file: is a FIFO (named pipe), not a regular file; a skill file must be a plain file"],
      },
    ]);
    const catalog = runCli(["catalog", "--json"], opts);
    expect(catalog.code).toBe(0);
    expect(listingOf(JSON.parse(catalog.stdout))).toContain("fine");
    const doctor = runCli(["doctor", "--json"], opts);
    expect(doctor.code).not.toBeNull(); // null: killed by the timeout
    expect(JSON.parse(doctor.stdout).checks.length).toBeGreaterThan(0);
  });
});
