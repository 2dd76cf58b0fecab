import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SkillDiscovery } from "../../src/discover/index.js";
import { parseFlag } from "../../src/discover/validate.js";
import { skillVisibility, splitDisabled } from "../../src/filter/index.js";
import { tempProject } from "../helpers/tmp.js";

describe("skill visibility matrix (SPEC section 4)", () => {
  it.each([
    [true, true, true, true],
    [false, true, false, true],
    [true, false, true, false],
    [false, false, false, false],
  ])("modelInvocable=%s userInvocable=%s -> model %s, user %s", (m, u, mv, uv) => {
    expect(skillVisibility({ modelInvocable: m, userInvocable: u })).toEqual({
      modelVisible: mv,
      userVisible: uv,
    });
  });

  it("a disabled entry is visible to no one, whatever its flags", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), (m, u) => {
        expect(skillVisibility({ modelInvocable: m, userInvocable: u }, true)).toEqual({
          modelVisible: false,
          userVisible: false,
        });
      }),
    );
  });

  it("flags accept booleans and true/false/yes/no; anything else is invalid", () => {
    for (const v of [true, "true", "YES", " yes "]) expect(parseFlag(v)).toBe(true);
    for (const v of [false, "false", "No"]) expect(parseFlag(v)).toBe(false);
    for (const v of [1, 0, "maybe", "on", [], {}]) expect(parseFlag(v)).toBe("invalid");
    expect(parseFlag(undefined)).toBeUndefined();
  });

  it("splitDisabled keeps order and honours * patterns", () => {
    const entries = ["a", "deploy-prod", "b", "deploy-dev"].map((name) => ({ name }));
    const { enabled, disabled } = splitDisabled(entries, ["deploy-*"]);
    expect(enabled.map((e) => e.name)).toEqual(["a", "b"]);
    expect(disabled.map((e) => e.name)).toEqual(["deploy-prod", "deploy-dev"]);
  });

  it("from frontmatter: the four combinations, string flags, and an unreadable flag failing closed", async () => {
    const sk = (name: string, flags: string) =>
      `---\nname: ${name}\ndescription: ${name}.\n${flags}---\nbody\n`;
    const p = tempProject({
      ".agents/skills/default/SKILL.md": sk("default", ""),
      ".agents/skills/user-only/SKILL.md": sk("user-only", "disable-model-invocation: true\n"),
      ".agents/skills/model-only/SKILL.md": sk("model-only", 'user-invocable: "no"\n'),
      ".agents/skills/dormant/SKILL.md": sk(
        "dormant",
        "disable-model-invocation: yes\nuser-invocable: false\n",
      ),
      ".agents/skills/bad-flag/SKILL.md": sk("bad-flag", "disable-model-invocation: sometimes\n"),
      ".agents/skills/off/SKILL.md": sk("off", ""),
    });
    const d = new SkillDiscovery({ cwd: p.repo, env: p.env, bundled: null, disabled: ["off"] });
    const view = await d.view();
    const vis = Object.fromEntries(view.skills.map((s) => [s.name, [s.modelVisible, s.userVisible]]));
    expect(vis).toEqual({
      "bad-flag": [false, true],
      default: [true, true],
      dormant: [false, false],
      "model-only": [true, false],
      off: [false, false],
      "user-only": [false, true],
    });
    expect(view.skills.find((s) => s.name === "off")!.disabled).toBe(true);
    expect(view.problems).toEqual([
      {
        path: expect.stringContaining("bad-flag"),
        errors: [
          expect.stringMatching(/line 4: disable-model-invocation: must be true or false .*"sometimes"/),
        ],
      },
    ]);
    d.close();
  });
});
