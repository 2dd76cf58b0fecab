import path from "node:path";
import { describe, expect, it } from "vitest";
import { SkillDiscovery, validateSkillPaths } from "../../src/discover/index.js";
import { anthropicSkills, DATA_MISSING } from "../helpers/data.js";
import { tempProject } from "../helpers/tmp.js";

const found = anthropicSkills();
const ANTHROPICS = found ?? "";
const NAMES = [
  "algorithmic-art",
  "brand-guidelines",
  "canvas-design",
  "claude-api",
  "frontend-design",
  "internal-comms",
  "mcp-builder",
  "skill-creator",
  "slack-gif-creator",
  "theme-factory",
  "web-artifacts-builder",
  "webapp-testing",
];

describe.skipIf(found === undefined)(
  `the 12 Anthropic skill bundles, read in place${found ? "" : ` [${DATA_MISSING}]`}`,
  () => {
    const p = tempProject();

    it("are all discovered, model- and user-visible; claude-api loads with a warning", async () => {
      const d = new SkillDiscovery({ cwd: p.repo, env: p.env, paths: [ANTHROPICS], bundled: null });
      const view = await d.view();
      expect(view.skills.map((s) => s.name)).toEqual(NAMES);
      for (const s of view.skills) {
        expect(s).toMatchObject({
          form: "bundle",
          rank: 300,
          root: ANTHROPICS,
          modelVisible: true,
          userVisible: true,
        });
        expect(s.path).toBe(path.join(ANTHROPICS, s.name, "SKILL.md"));
        expect(s.description.length).toBeGreaterThan(20);
      }
      expect(view.problems).toHaveLength(1);
      expect(view.problems[0]!.path).toBe(path.join(ANTHROPICS, "claude-api", "SKILL.md"));
      expect(view.problems[0]!.errors).toEqual([
        expect.stringMatching(/^warning: line 3: description: is 1,068 characters/),
      ]);
      expect(view.skills.find((s) => s.name === "claude-api")!.description).toHaveLength(1068);
      d.close();
    });

    it("skills validate: 11 valid, claude-api invalid", async () => {
      const results = await validateSkillPaths([ANTHROPICS], "/");
      expect(results.map((r) => path.basename(path.dirname(r.path)))).toEqual(NAMES);
      expect(results.filter((r) => !r.valid).map((r) => r.path)).toEqual([
        path.join(ANTHROPICS, "claude-api", "SKILL.md"),
      ]);
      const api = results.find((r) => !r.valid)!;
      expect(api.errors).toEqual([expect.stringContaining("over the 1,024 limit")]);
    });
  },
);
