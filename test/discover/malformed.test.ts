import path from "node:path";
import { describe, expect, it } from "vitest";
import { SkillDiscovery, validateSkillPaths } from "../../src/discover/index.js";
import { tempProject } from "../helpers/tmp.js";

const ok = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nBody of ${name}.\n`;
const TEN_MB = 10 * 1024 * 1024;

/** Each malformed input with the problem it must produce (or null: it loads). */
const CORPUS: Record<string, { content: string | Buffer; problem: RegExp | null }> = {
  "no-frontmatter": { content: "# Just a heading\n\nNo frontmatter here.\n", problem: /no frontmatter/ },
  unclosed: { content: "---\nname: unclosed\ndescription: never closed\n\nbody\n", problem: /never closed/ },
  "invalid-yaml": {
    content: "---\nname: invalid-yaml\ndescription: [oops\n---\nbody\n",
    problem: /line \d+, column \d+: invalid YAML/,
  },
  "duplicate-key": {
    content: "---\nname: duplicate-key\nname: again\ndescription: d\n---\n",
    problem: /line 3, column \d+: invalid YAML: Map keys must be unique/,
  },
  "non-mapping": {
    content: "---\n- a\n- list\n---\nbody\n",
    problem: /must be a YAML mapping.*found a list/,
  },
  scalar: { content: "---\njust a string\n---\n", problem: /must be a YAML mapping.*found a string/ },
  binary: {
    content: Buffer.concat([Buffer.from("---\nname: binary\n"), Buffer.from([0, 1, 2, 255, 0])]),
    problem: /binary content/,
  },
  "not-utf8": {
    content: Buffer.concat([
      Buffer.from("---\nname: not-utf8\ndescription: caf"),
      Buffer.from([0xe9]),
      Buffer.from("\n---\n"),
    ]),
    problem: /not valid UTF-8/,
  },
  "no-description": {
    content: "---\nname: no-description\n---\nbody\n",
    problem: /line 1: description: is required/,
  },
  "description-list": {
    content: "---\nname: description-list\ndescription:\n  - a\n---\n",
    problem: /line 3: description: must be a non-empty string \(found a list\)/,
  },
  "huge-unclosed": {
    content: `---\nname: huge-unclosed\n${"x: y\n".repeat(300_000)}`,
    problem: /no closing --- within/,
  },
  // these load
  bom: { content: `\uFEFF${ok("bom")}`, problem: null },
  crlf: { content: ok("crlf").replace(/\n/g, "\r\n"), problem: null },
  "ten-mb": { content: ok("ten-mb") + "z".repeat(TEN_MB), problem: null },
  "empty-frontmatter-name": {
    content: "---\ndescription: name falls back to the directory\n---\n",
    problem: /warning: line 1: name: is required/,
  },
};

describe("malformed skill files: a clear problem each, and never hide other skills", () => {
  const files: Record<string, string | Buffer> = { ".claude/skills/good/SKILL.md": ok("good") };
  for (const [name, c] of Object.entries(CORPUS)) files[`.claude/skills/${name}/SKILL.md`] = c.content;
  files[".claude/skills/zz-good.md"] = ok("zz-good");
  const p = tempProject(files);
  const root = path.join(p.repo, ".claude", "skills");

  it("discovery lists every good skill and one problem per bad file", async () => {
    const d = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null });
    const view = await d.view();
    const names = view.skills.map((s) => s.name);
    const loads = Object.entries(CORPUS)
      .filter(([, c]) => c.problem === null || c.problem.source.startsWith("warning"))
      .map(([n]) => n);
    expect(names).toEqual([...loads, "good", "zz-good"].sort());
    for (const [name, c] of Object.entries(CORPUS)) {
      const problem = view.problems.find((pr) => pr.path === path.join(root, name, "SKILL.md"));
      if (c.problem === null) expect(problem, name).toBeUndefined();
      else {
        expect(problem, name).toBeDefined();
        expect(problem!.errors.join("\n"), name).toMatch(c.problem);
      }
    }
    d.close();
  });

  it("BOM and CRLF frontmatter parse to the same fields as plain LF", async () => {
    const d = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null });
    const view = await d.view();
    expect(view.skills.find((s) => s.name === "bom")!.description).toBe("The bom skill.");
    expect(view.skills.find((s) => s.name === "crlf")!.description).toBe("The crlf skill.");
    d.close();
  });

  it("skills validate reports each malformed file invalid with a message", async () => {
    const results = await validateSkillPaths([root], "/");
    for (const [name, c] of Object.entries(CORPUS)) {
      const r = results.find((x) => x.path === path.join(root, name, "SKILL.md"))!;
      expect(r, name).toBeDefined();
      expect(r.valid, name).toBe(c.problem === null);
      if (c.problem)
        expect(r.errors.join("\n"), name).toMatch(new RegExp(c.problem.source.replace(/^warning: /, "")));
    }
  });
});
