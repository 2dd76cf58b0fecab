// skill:// resources of a flat skill (src/mcp/server/skill-resources.ts): its folder holds other
// files, and a subscription (fileOf) reaches no more of them than a read does.
import { realpathSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SkillsView } from "../../src/discover/view.js";
import { skillResources } from "../../src/mcp/server/skill-resources.js";
import { tempDir, writeTree } from "../helpers/tmp.js";

describe("skill:// of a flat skill", () => {
  it("reads and watches its own file only, never a sibling in its folder", async () => {
    const dir = tempDir("tp-flat-");
    writeTree(dir, { "a.md": "# a\n", "private.md": "not a skill\n" });
    const view: SkillsView = {
      skills: [
        {
          name: "a",
          description: "flat",
          root: dir,
          rank: 0,
          form: "flat",
          path: path.join(dir, "a.md"),
          modelVisible: true,
          userVisible: true,
          provider: "skills",
          disabled: false,
        },
      ],
      shadowed: [],
      problems: [],
      incomplete: false,
      providerProblems: [],
    };
    const source = skillResources(async () => view);
    await expect(source.fileOf?.("skill://a/a.md")).resolves.toBe(realpathSync(path.join(dir, "a.md")));
    await expect(source.read("skill://a/private.md")).rejects.toThrow(/is a single file, a\.md/);
    await expect(source.fileOf?.("skill://a/private.md")).rejects.toThrow(/is a single file, a\.md/);
  });
});
