import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { CLI, runCli, runJson } from "../helpers/cli.js";
import { anthropicSkills, DATA_MISSING } from "../helpers/data.js";
import { tempProject, writeTree } from "../helpers/tmp.js";

const found = anthropicSkills();
const ANTHROPICS = found ?? "";
const needsData = found ? "" : ` [${DATA_MISSING}]`;
const skill = (name: string, extra = "") =>
  `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\nbody\n`;

describe("CLI contract: skills", () => {
  it("skills --json has the contract shape, with shadowed and problems", () => {
    const p = tempProject({
      ".toolplane/skills/dup/SKILL.md": skill("dup"),
      ".claude/skills/dup/SKILL.md": skill("dup"),
      ".claude/skills/quiet.md": skill("quiet", "disable-model-invocation: true\n"),
      ".claude/skills/broken/SKILL.md": "no frontmatter\n",
    });
    const out = runJson(["skills"], { cwd: p.repo, env: p.env });
    expect(out.skills).toEqual([
      {
        name: "dup",
        description: "The dup skill.",
        root: path.join(p.repo, ".toolplane/skills"),
        rank: 100,
        form: "bundle",
        path: path.join(p.repo, ".toolplane/skills/dup/SKILL.md"),
        modelVisible: true,
        userVisible: true,
        provider: "skills:project",
        disabled: false,
      },
      expect.objectContaining({
        name: "quiet",
        form: "flat",
        rank: 210,
        modelVisible: false,
        userVisible: true,
      }),
    ]);
    expect(out.shadowed).toEqual([expect.objectContaining({ name: "dup", rank: 210 })]);
    expect(out.problems).toEqual([
      {
        path: path.join(p.repo, ".claude/skills/broken/SKILL.md"),
        errors: [expect.stringMatching(/no frontmatter/)],
      },
    ]);
  });

  it.skipIf(found === undefined)(
    `--cwd picks the project; --set skills.paths adds a custom root read in place${needsData}`,
    () => {
      const p = tempProject({ ".agents/skills/mine/SKILL.md": skill("mine") });
      const sub = path.join(p.repo, "deep");
      writeTree(sub, { "x.txt": "" });
      const out = runJson(["skills", "--cwd", sub, "--set", `skills.paths=${JSON.stringify([ANTHROPICS])}`], {
        env: p.env,
      });
      expect(out.skills).toHaveLength(13);
      expect(out.skills.find((s: { name: string }) => s.name === "mine").rank).toBe(200);
      expect(out.problems).toHaveLength(1);
    },
  );

  it.skipIf(found === undefined)(
    `skills validate: JSON array, exit 1 when any file is invalid, 0 when all are valid${needsData}`,
    () => {
      const bad = runCli(["skills", "validate", ANTHROPICS, "--json"]);
      expect(bad.code).toBe(1);
      const results = JSON.parse(bad.stdout);
      expect(results).toHaveLength(12);
      expect(
        results.filter((r: { valid: boolean }) => !r.valid).map((r: { path: string }) => r.path),
      ).toEqual([path.join(ANTHROPICS, "claude-api", "SKILL.md")]);
      for (const r of results) expect(Object.keys(r).sort()).toEqual(["errors", "path", "valid"]);
      const good = runCli(["skills", "validate", path.join(ANTHROPICS, "mcp-builder"), "--json"]);
      expect(good.code).toBe(0);
      expect(JSON.parse(good.stdout)).toEqual([
        { path: path.join(ANTHROPICS, "mcp-builder", "SKILL.md"), valid: true, errors: [] },
      ]);
      const missing = runCli(["skills", "validate", "/nope/nothing"]);
      expect(missing.code).toBe(1);
      expect(missing.stdout).toMatch(/does not exist/);
      expect(runCli(["skills", "validate"]).code).toBe(2);
    },
  );

  it("skills --watch --json prints one JSON line per change and stops cleanly", async () => {
    const p = tempProject({ ".claude/skills/first/SKILL.md": skill("first") });
    const child = spawn(process.execPath, [CLI, "skills", "--watch", "--json"], {
      cwd: p.repo,
      env: p.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const next = async () => JSON.parse((await lines.next()).value as string);
    const first = await next();
    expect(first.skills.map((s: { name: string }) => s.name)).toEqual(["first"]);
    writeTree(p.repo, { ".claude/skills/second/SKILL.md": skill("second") });
    let snap = await next();
    while (snap.skills.length < 2) snap = await next();
    expect(snap.skills.map((s: { name: string }) => s.name)).toEqual(["first", "second"]);
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.stdin!.end();
    expect(await exited).toBe(0);
  });
});
