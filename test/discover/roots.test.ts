import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SkillDiscovery, skillRoots } from "../../src/discover/index.js";
import { describeLayers } from "../../src/register/index.js";
import { tempProject, writeTree } from "../helpers/tmp.js";

const skill = (name: string, extra = "") =>
  `---\nname: ${name}\ndescription: ${name} from here.\n${extra}---\nbody\n`;

describe("skill roots and ranks", () => {
  it("are the SPEC's eight, in rank order, with the project found by .git and HOME honoured", () => {
    const p = tempProject();
    const sub = path.join(p.repo, "a", "b");
    mkdirSync(sub, { recursive: true });
    const roots = skillRoots({ cwd: sub, env: p.env, paths: ["custom", "~/mine"], bundled: "/pkg/skills" });
    expect(roots.map((r) => [r.provider, r.dir, r.rank])).toEqual([
      ["skills:project", path.join(p.repo, ".toolplane/skills"), 100],
      ["skills:project-agents", path.join(p.repo, ".agents/skills"), 200],
      ["skills:project-claude", path.join(p.repo, ".claude/skills"), 210],
      ["skills:custom-1", path.join(p.repo, "custom"), 300],
      ["skills:custom-2", path.join(p.home, "mine"), 300],
      ["skills:toolplane-home", path.join(p.home, ".config/toolplane/skills"), 400],
      ["skills:user-agents", path.join(p.home, ".agents/skills"), 500],
      ["skills:user-claude", path.join(p.home, ".claude/skills"), 510],
      ["skills:bundled", "/pkg/skills", 600],
    ]);
    const withHome = skillRoots({ cwd: sub, env: { ...p.env, TOOLPLANE_HOME: "/tp" }, bundled: null });
    expect(withHome.find((r) => r.rank === 400)!.dir).toBe("/tp/skills");
  });

  it("lower rank wins a name; the loser is shadowed in the view and in the registry's layers", async () => {
    const p = tempProject({
      ".toolplane/skills/dup/SKILL.md": skill("dup"),
      ".claude/skills/dup/SKILL.md": skill("dup"),
      ".claude/skills/only-claude.md": skill("only-claude"),
    });
    writeTree(p.home, {
      ".agents/skills/dup/SKILL.md": skill("dup"),
      ".agents/skills/home/SKILL.md": skill("home"),
    });
    const d = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null });
    const view = await d.view();
    expect(view.skills.map((s) => [s.name, s.rank, s.form])).toEqual([
      ["dup", 100, "bundle"],
      ["home", 500, "bundle"],
      ["only-claude", 210, "flat"],
    ]);
    expect(view.shadowed.map((s) => [s.name, s.rank, s.by.rank])).toEqual([
      ["dup", 210, 100],
      ["dup", 500, 100],
    ]);
    const layers = await describeLayers(d.registry, []);
    const dups = layers.layers[0]!.entries.filter((e) => e.name === "dup");
    expect(dups.map((e) => [e.provider, e.shadowed])).toEqual([
      ["skills:project", false],
      ["skills:project-claude", true],
      ["skills:user-agents", true],
    ]);
    d.close();
  });

  it("finds bundles (SKILL.md or skill.md) and flat files, nothing deeper", async () => {
    const p = tempProject({
      ".agents/skills/upper/SKILL.md": skill("upper"),
      ".agents/skills/lower/skill.md": skill("lower"),
      ".agents/skills/flat.md": skill("flat"),
      ".agents/skills/group/nested/SKILL.md": skill("nested"),
      ".agents/skills/notes.txt": "not a skill",
      ".agents/skills/.hidden/SKILL.md": skill("hidden"),
    });
    const d = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null });
    const view = await d.view();
    expect(view.skills.map((s) => s.name)).toEqual(["flat", "lower", "upper"]);
    expect(view.problems).toEqual([]);
    d.close();
  });

  it("two entries with one name in a root: the first in name order loads, the other is a problem", async () => {
    const p = tempProject({ ".agents/skills/x/SKILL.md": skill("x"), ".agents/skills/x.md": skill("x") });
    const d = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null });
    const view = await d.view();
    expect(view.skills.map((s) => [s.name, s.form])).toEqual([["x", "bundle"]]);
    expect(view.problems[0]!.path).toBe(path.join(p.repo, ".agents/skills/x.md"));
    expect(view.problems[0]!.errors[0]).toMatch(/already used by/);
    d.close();
  });

  it("a name that does not match its directory loads with a warning; unknown fields are kept", async () => {
    const p = tempProject({ ".agents/skills/dir-name/SKILL.md": skill("other-name", "custom-field: 42\n") });
    const d = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null });
    const view = await d.view();
    expect(view.skills.map((s) => s.name)).toEqual(["other-name"]);
    expect(view.problems[0]!.errors).toEqual([
      expect.stringMatching(/^warning: line 2: name: "other-name" does not match its directory "dir-name"/),
      expect.stringMatching(/^warning: line 4: unknown field: "custom-field"/),
    ]);
    const snap = await d.registry.snapshot();
    expect(snap.get("other-name")!.entry.frontmatter["custom-field"]).toBe(42);
    d.close();
  });

  it("follows symlinked skill dirs and reports looping or dangling links without hiding others", async () => {
    const p = tempProject({
      "elsewhere/linked/SKILL.md": skill("linked"),
      ".agents/skills/plain/SKILL.md": skill("plain"),
    });
    const root = path.join(p.repo, ".agents/skills");
    symlinkSync(path.join(p.repo, "elsewhere/linked"), path.join(root, "linked"));
    symlinkSync(path.join(root, "loop-b"), path.join(root, "loop-a"));
    symlinkSync(path.join(root, "loop-a"), path.join(root, "loop-b"));
    symlinkSync(path.join(p.repo, "missing"), path.join(root, "dangling"));
    symlinkSync(root, path.join(root, "self"));
    const d = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null });
    const view = await d.view();
    expect(view.skills.map((s) => s.name)).toEqual(["linked", "plain"]);
    expect(view.skills[0]!.path).toBe(path.join(root, "linked", "SKILL.md"));
    const problems = Object.fromEntries(view.problems.map((pr) => [path.basename(pr.path), pr.errors[0]]));
    expect(problems["loop-a"]).toMatch(/loops/);
    expect(problems["loop-b"]).toMatch(/loops/);
    expect(problems.dangling).toMatch(/dangling/);
    d.close();
  });

  it("a root that is a file is a problem, not a crash", async () => {
    const p = tempProject({ ".agents/skills": "oops", ".claude/skills/fine/SKILL.md": skill("fine") });
    const d = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null });
    const view = await d.view();
    expect(view.skills.map((s) => s.name)).toEqual(["fine"]);
    expect(view.problems).toEqual([
      { path: path.join(p.repo, ".agents/skills"), errors: [expect.stringMatching(/not a directory/)] },
    ]);
    d.close();
  });

  it("the same inputs give the same view, byte for byte", async () => {
    const p = tempProject({ ".agents/skills/b/SKILL.md": skill("b"), ".agents/skills/a.md": skill("a") });
    const a = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null });
    const b = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null });
    expect(JSON.stringify(await a.view())).toBe(JSON.stringify(await b.view()));
    a.close();
    b.close();
  });

  it("the view cache is keyed by scope chain: a scope restriction is seen on the next read", async () => {
    const p = tempProject({
      ".agents/skills/a/SKILL.md": skill("a"),
      ".agents/skills/b/SKILL.md": skill("b"),
    });
    const d = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null });
    expect((await d.view(["agent:x"])).skills.map((s) => s.name)).toEqual(["a", "b"]);
    d.registry.restrict("agent:x", { deny: ["b"] });
    expect((await d.view(["agent:x"])).skills.map((s) => s.name)).toEqual(["a"]);
    expect((await d.view([])).skills.map((s) => s.name)).toEqual(["a", "b"]);
    d.close();
  });
});
