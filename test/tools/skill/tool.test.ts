import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Toolplane } from "../../../src/assemble/index.js";
import { SkillDiscovery } from "../../../src/discover/index.js";
import { loadSkill, renderSkillResult, SKILL_FILES_MAX, skillTool } from "../../../src/tools/skill/tool.js";
import { anthropicSkills, DATA_MISSING } from "../../helpers/data.js";
import { tempProject } from "../../helpers/tmp.js";

const ctx = { signal: new AbortController().signal, cwd: "/", workspace: "/", config: {} };

describe("the skill tool", () => {
  const files: Record<string, string> = {
    ".agents/skills/big/SKILL.md":
      "---\nname: big\ndescription: Many files.\n---\n\n# Big\nDo the big thing.\n",
    ".agents/skills/user-only/SKILL.md":
      "---\nname: user-only\ndescription: Only people may run it.\ndisable-model-invocation: true\n---\nsecret\n",
    ".agents/skills/flat.md": "\uFEFF---\r\nname: flat\r\ndescription: A flat one.\r\n---\r\nFlat body.\r\n",
  };
  for (let i = 0; i < SKILL_FILES_MAX + 7; i++)
    files[`.agents/skills/big/ref/f${String(i).padStart(3, "0")}.txt`] = "x";
  const p = tempProject(files);
  const d = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null });
  const tool = skillTool(() => d.view());

  it("returns the body without frontmatter and the bundled files, capped with a count of the rest", async () => {
    const value = await tool.host.execute({ name: "big" }, ctx);
    expect(value.body).toBe("# Big\nDo the big thing.\n");
    expect(value.files).toHaveLength(SKILL_FILES_MAX);
    expect(value.files[0]).toBe("ref/f000.txt");
    expect(value.moreFiles).toBe(7);
    expect(value.dir).toBe(path.join(p.repo, ".agents/skills/big"));
    expect(tool.validateOutput(value).ok).toBe(true);
    const text = renderSkillResult(value);
    expect(text).toContain('<skill name="big"');
    expect(text).toContain("- ref/f049.txt");
    expect(text).toContain("… and 7 more files not listed");
    expect(text).not.toContain("description: Many files.");
  });

  it("a flat skill with BOM and CRLF: body only, no files", async () => {
    const value = await tool.host.execute({ name: "flat" }, ctx);
    expect(value.body).toBe("Flat body.\r\n");
    expect(value).toMatchObject({ dir: null, files: [], moreFiles: 0 });
  });

  it("is an error for a skill whose model invocation is disabled, and for an unknown name", async () => {
    await expect(tool.host.execute({ name: "user-only" }, ctx)).rejects.toThrow(
      /model invocation is disabled/,
    );
    await expect(tool.host.execute({ name: "bgi" }, ctx)).rejects.toThrow(
      /no skill named "bgi"; did you mean "big"/,
    );
  });

  it("declares a zod schema the model sees and validates input", () => {
    expect(tool.parameters).toMatchObject({ type: "object", required: ["name"] });
    expect(tool.validateInput({}).ok).toBe(false);
  });

  const skills = anthropicSkills();
  it.skipIf(skills === undefined)(
    `loads a real Anthropic skill read in place${skills ? "" : ` [${DATA_MISSING}]`}`,
    async () => {
      const root = skills!;
      const real = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null, paths: [root] });
      const value = await loadSkill(await real.view(), "skill-creator");
      expect(value.body.startsWith("# Skill Creator")).toBe(true);
      expect(value.files.length + value.moreFiles).toBeGreaterThan(3);
      expect(value.files).toEqual([...value.files].sort());
      real.close();
    },
  );
});

describe("Toolplane wiring", () => {
  it("lists model-visible skills in the catalog's skills attachment and registers the skill tool under builtin", async () => {
    const p = tempProject({
      ".claude/skills/shown/SKILL.md": "---\nname: shown\ndescription: Shown to the model.\n---\n",
      ".claude/skills/hidden/SKILL.md":
        "---\nname: hidden\ndescription: Not for the model.\ndisable-model-invocation: true\n---\n",
    });
    const plane = await Toolplane.open({ cwd: p.repo, env: p.env, bundledSkills: null });
    try {
      const catalog = await plane.catalog("anthropic");
      const listed = catalog.attachments.find((a) => a.kind === "skills")?.text ?? "";
      expect(listed).toContain("- shown: Shown to the model.");
      expect(listed).not.toContain("hidden");
      expect(JSON.stringify(catalog.tools)).toContain('"skill"');
      const snap = await plane.toolSnapshot();
      expect(snap.get("skill")?.provider).toBe("builtin");
      const skills = await plane.skills.snapshot();
      expect(skills.entries.map((e) => [e.name, e.provider, e.rank])).toEqual([
        ["hidden", "skills:project-claude", 210],
        ["shown", "skills:project-claude", 210],
      ]);
    } finally {
      await plane.close();
    }
  });

  it("close() stops a running watcher: no fs watch handles are left", async () => {
    const watches = () => process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length;
    const before = watches();
    const p = tempProject({ ".claude/skills/x/SKILL.md": "---\nname: x\ndescription: x.\n---\n" });
    const plane = await Toolplane.open({ cwd: p.repo, env: p.env, bundledSkills: null });
    await plane.watchSkills();
    expect(watches()).toBeGreaterThan(before);
    await plane.close();
    expect(watches()).toBe(before);
  });

  it("overlapping watchSkills() calls share one watcher, and close() during start leaks none", async () => {
    const watches = () => process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length;
    const before = watches();
    const p = tempProject({ ".claude/skills/x/SKILL.md": "---\nname: x\ndescription: x.\n---\n" });
    const plane = await Toolplane.open({ cwd: p.repo, env: p.env, bundledSkills: null });
    const [a, b] = await Promise.all([plane.watchSkills(), plane.watchSkills()]);
    expect(a).toBe(b);
    await plane.close();
    expect(watches()).toBe(before);

    const again = await Toolplane.open({ cwd: p.repo, env: p.env, bundledSkills: null });
    const starting = again.watchSkills();
    await again.close(); // before the watcher is ready
    await starting;
    expect(watches()).toBe(before);
  });

  it("without watchSkills() nothing is watched (catalog reads stay one-shot)", async () => {
    const watches = () => process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length;
    const before = watches();
    const p = tempProject({ ".claude/skills/x/SKILL.md": "---\nname: x\ndescription: x.\n---\n" });
    const plane = await Toolplane.open({ cwd: p.repo, env: p.env, bundledSkills: null });
    await plane.catalog("openai-chat");
    expect(watches()).toBe(before);
    await plane.close();
  });

  it("a skill file swapped for a FIFO after discovery is refused at once; a huge one is cut with a note (through the host)", async () => {
    const q = tempProject({
      ".agents/skills/piped/SKILL.md": "---\nname: piped\ndescription: Will become a FIFO.\n---\nbody\n",
      ".agents/skills/huge/SKILL.md": `---\nname: huge\ndescription: Large.\n---\n${"é".repeat(700_000)}\n`,
    });
    const plane = await Toolplane.open({ cwd: q.repo, env: q.env, bundledSkills: null });
    try {
      expect((await plane.skillsView()).skills.map((s) => s.name).sort()).toEqual(["huge", "piped"]);
      const file = path.join(q.repo, ".agents/skills/piped/SKILL.md");
      rmSync(file);
      execFileSync("mkfifo", [file]);
      const piped = await plane.call("skill", { name: "piped" });
      expect(piped.isError).toBe(true);
      expect(piped.content[0]).toMatchObject({ text: expect.stringMatching(/not a regular file/) });

      const huge = await plane.call("skill", { name: "huge" });
      expect(huge.isError).toBe(false);
      const text = (huge.content[0] as { text: string }).text;
      expect(text).toMatch(/\[skill cut: its file has 1400\d+ bytes; read .*SKILL\.md for the rest\]/);
      expect(text).not.toContain("\uFFFD");
      // the body stayed within the body limit (1 MiB of it, then the host's own limits apply)
      expect(huge.truncated).toBe(true);
    } finally {
      await plane.close();
    }
  });

  it("a bundle with many files is listed by its first names without holding them all", async () => {
    const many: Record<string, string> = {
      ".agents/skills/wide/SKILL.md": "---\nname: wide\ndescription: Wide.\n---\nbody\n",
    };
    for (let i = 0; i < 3_000; i++)
      many[`.agents/skills/wide/z/${String(2999 - i).padStart(4, "0")}.txt`] = "";
    const q = tempProject(many);
    const disc = new SkillDiscovery({ cwd: q.repo, env: q.env, bundled: null });
    const value = await loadSkill(await disc.view(), "wide");
    expect(value.files).toEqual(
      Array.from({ length: SKILL_FILES_MAX }, (_, i) => `z/${String(i).padStart(4, "0")}.txt`),
    );
    expect(value.moreFiles).toBe(3_000 - SKILL_FILES_MAX);
    expect(value.moreUncounted).toBeUndefined();
    disc.close();
  });
});
