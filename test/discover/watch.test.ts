import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SkillDiscovery, type SkillsView, SkillWatcher } from "../../src/discover/index.js";
import { tempProject, writeTree } from "../helpers/tmp.js";

const skill = (name: string, text = "v1") => `---\nname: ${name}\ndescription: ${name} ${text}.\n---\nbody\n`;

/** Waits (settling the watcher between looks) until the view passes `check`; fails after ~10 s. */
async function until(
  w: SkillWatcher,
  d: SkillDiscovery,
  check: (v: SkillsView) => boolean,
): Promise<SkillsView> {
  let last: SkillsView | undefined;
  for (let i = 0; i < 200; i++) {
    await w.settle();
    last = await d.view();
    if (check(last)) return last;
    await sleep(50);
  }
  throw new Error(
    `the watched view never got there; last: ${JSON.stringify(last?.skills.map((s) => s.name))}`,
  );
}

const names = (v: SkillsView) => v.skills.map((s) => `${s.name}@${s.rank}`).join(",");

describe("watching skill roots", () => {
  const open: Array<{ close(): unknown }> = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  async function start(
    files: Record<string, string> = {},
    opts: ConstructorParameters<typeof SkillDiscovery>[0] extends infer O ? Partial<O> : never = {},
  ) {
    const p = tempProject(files);
    const d = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null, ...opts });
    const w = await SkillWatcher.start(d);
    open.push(w, d);
    return { p, d, w };
  }

  it("add, change, rename (both halves) and delete reach the next snapshot", async () => {
    const { p, d, w } = await start({ ".claude/skills/keep/SKILL.md": skill("keep") });
    const root = path.join(p.repo, ".claude/skills");
    expect(names(await d.view())).toBe("keep@210");

    writeTree(root, { "added/SKILL.md": skill("added") });
    await until(w, d, (v) => names(v) === "added@210,keep@210");

    writeFileSync(path.join(root, "added/SKILL.md"), skill("added", "v2"));
    await until(w, d, (v) => v.skills.find((s) => s.name === "added")?.description === "added v2.");

    writeFileSync(path.join(root, "added/SKILL.md"), skill("renamed", "v2"));
    renameSync(path.join(root, "added"), path.join(root, "renamed"));
    const v = await until(w, d, (x) => names(x) === "keep@210,renamed@210");
    expect(v.problems).toEqual([]);

    writeFileSync(path.join(root, "flat.md"), skill("flat"));
    await until(w, d, (x) => names(x) === "flat@210,keep@210,renamed@210");
    // the flat file keeps its frontmatter name; the old path goes, the new one arrives with a warning
    renameSync(path.join(root, "flat.md"), path.join(root, "moved.md"));
    await until(
      w,
      d,
      (x) =>
        x.skills.find((s) => s.name === "flat")?.path === path.join(root, "moved.md") &&
        x.problems.length === 1 &&
        x.skills.length === 3,
    );

    rmSync(path.join(root, "renamed"), { recursive: true });
    rmSync(path.join(root, "moved.md"));
    await until(w, d, (x) => names(x) === "keep@210" && x.problems.length === 0);
  });

  it("a root created after start is picked up, and a root deleted and created again", async () => {
    const { p, d, w } = await start();
    expect(names(await d.view())).toBe("");
    // neither .toolplane nor its skills folder exist yet
    writeTree(p.repo, { ".toolplane/skills/late/SKILL.md": skill("late") });
    await until(w, d, (v) => names(v) === "late@100");
    writeTree(p.home, { ".agents/skills/far/SKILL.md": skill("far") });
    await until(w, d, (v) => names(v) === "far@500,late@100");

    rmSync(path.join(p.repo, ".toolplane"), { recursive: true });
    await until(w, d, (v) => names(v) === "far@500");
    writeTree(p.repo, { ".toolplane/skills/again/SKILL.md": skill("again") });
    await until(w, d, (v) => names(v) === "again@100,far@500");
    writeTree(p.repo, { ".toolplane/skills/again/SKILL.md": skill("again", "v3") });
    await until(w, d, (v) => v.skills[0]?.description === "again v3.");
  });

  describe("a root deleted and made again before its events are handled", () => {
    // rm + mkdir in one go: the base still lists the root, and ext4 reuses the freed inode number,
    // so chokidar kept a dead watch on the old directory and missed every later change in it
    const root = (p: { repo: string }) => path.join(p.repo, ".claude/skills");
    const replace = (dir: string, files: Record<string, string>) => {
      rmSync(dir, { recursive: true, force: true });
      writeTree(dir, files);
    };

    it("sees a skill added after a pause (the property test's counterexample)", async () => {
      const { p, d, w } = await start({ ".claude/skills/seed/SKILL.md": skill("seed") });
      replace(root(p), { "a/SKILL.md": skill("a") });
      await sleep(60);
      writeTree(root(p), { "b/SKILL.md": skill("b") });
      await until(w, d, (v) => names(v) === "a@210,b@210");
      // and later changes still arrive
      writeTree(root(p), { "c.md": skill("c") });
      await until(w, d, (v) => names(v) === "a@210,b@210,c@210");
      expect((await w.auditNow()).differences).toEqual([]);
    });

    it("survives the root being replaced twice in quick succession", async () => {
      const { p, d, w } = await start({ ".claude/skills/seed/SKILL.md": skill("seed") });
      replace(root(p), { "a/SKILL.md": skill("a") });
      replace(root(p), { "b/SKILL.md": skill("b") });
      await sleep(30);
      writeTree(root(p), { "c/SKILL.md": skill("c") });
      await until(w, d, (v) => names(v) === "b@210,c@210");
      await w.idle();
      replace(root(p), { "d/SKILL.md": skill("d") });
      await sleep(30);
      writeTree(root(p), { "e/SKILL.md": skill("e") });
      await until(w, d, (v) => names(v) === "d@210,e@210");
      expect((await w.auditNow()).differences).toEqual([]);
    });

    it("sees skills added right after an empty root appears again", async () => {
      const { p, d, w } = await start({ ".claude/skills/seed/SKILL.md": skill("seed") });
      rmSync(root(p), { recursive: true });
      mkdirSync(root(p));
      writeTree(root(p), { "a/SKILL.md": skill("a"), "b.md": skill("b") });
      await until(w, d, (v) => names(v) === "a@210,b@210");
      writeFileSync(path.join(root(p), "a/SKILL.md"), skill("a", "v2"));
      writeTree(root(p), { "c.md": skill("c") });
      await until(w, d, (v) => names(v) === "a@210,b@210,c@210" && v.skills[0]?.description === "a v2.");
      expect((await w.auditNow()).differences).toEqual([]);
    });
  });

  it("a burst of events makes one refresh", async () => {
    const p = tempProject({ ".claude/skills/x/SKILL.md": skill("x") });
    const d = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null });
    const w = await SkillWatcher.start(d, { debounceMs: 400, maxWaitMs: 5000 });
    open.push(w, d);
    const refresh = vi.spyOn(d, "refresh");
    const first = new Promise<SkillsView>((resolve) => d.onChange(resolve));
    for (let i = 0; i < 25; i++)
      writeTree(path.join(p.repo, ".claude/skills"), { [`s${i}/SKILL.md`]: skill(`s${i}`) });
    // the first snapshot after the burst already holds all of it: one refresh, not 25
    const view = await first;
    expect(view.skills).toHaveLength(26);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("an audit finds what the incremental state missed, reports it and repairs it", async () => {
    const p = tempProject({
      ".agents/skills/a/SKILL.md": skill("a"),
      ".agents/skills/b/SKILL.md": skill("b"),
    });
    const d = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null });
    open.push(d);
    await d.view();
    // changes no watcher saw
    rmSync(path.join(p.repo, ".agents/skills/a"), { recursive: true });
    writeTree(p.repo, { ".agents/skills/b/SKILL.md": skill("b", "v2"), ".agents/skills/c.md": skill("c") });
    const seen: SkillsView[] = [];
    d.onChange((v) => seen.push(v));
    const report = await d.audit();
    const root = path.join(p.repo, ".agents/skills");
    expect(report).toEqual({
      differences: [
        { root, entry: "a", kind: "extra" },
        { root, entry: "b", kind: "stale" },
        { root, entry: "c.md", kind: "missing" },
      ],
      repaired: true,
    });
    expect(names(await d.view())).toBe("b@200,c@200");
    expect(seen).toHaveLength(1);
    expect(await d.audit()).toEqual({ differences: [], repaired: false });
  });

  it("audits on a timer (skills.auditIntervalMs)", async () => {
    const p = tempProject();
    const d = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null });
    const audit = vi.spyOn(d, "audit");
    const w = await SkillWatcher.start(d, { auditIntervalMs: 20 });
    open.push(w, d);
    const calls = audit.mock.calls.length;
    for (let i = 0; i < 200 && audit.mock.calls.length < calls + 2; i++) await sleep(20);
    expect(audit.mock.calls.length).toBeGreaterThanOrEqual(calls + 2);
    await w.close();
    const after = audit.mock.calls.length;
    await sleep(100);
    expect(audit.mock.calls.length).toBe(after);
  });

  it("close() in the middle of a root rebuild leaves no watch handle", async () => {
    const watches = () => process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length;
    const before = watches();
    const { p, d, w } = await start({ ".claude/skills/x/SKILL.md": skill("x") });
    const root = path.join(p.repo, ".claude/skills");
    rmSync(root, { recursive: true });
    writeTree(root, { "y/SKILL.md": skill("y") });
    // let the raw watch see the old root go, so the rebuild is under way when close() runs
    await sleep(20);
    await w.close();
    d.close();
    expect(watches()).toBe(before);
  });

  it("close() stops every watcher: no events are handled after it", async () => {
    const { p, d, w } = await start({ ".claude/skills/x/SKILL.md": skill("x") });
    await w.close();
    const refresh = vi.spyOn(d, "refresh");
    writeTree(p.repo, { ".claude/skills/y/SKILL.md": skill("y") });
    mkdirSync(path.join(p.repo, ".agents"));
    await sleep(300);
    expect(refresh).not.toHaveBeenCalled();
  });
});
