import { describe, expect, it } from "vitest";
import { parseSkillArguments, substituteArguments } from "../../src/discover/arguments.js";
import { checkFrontmatter } from "../../src/discover/validate.js";

describe("skill arguments (frontmatter `arguments`)", () => {
  it("takes Claude Code's forms and toolplane's mappings; skills validate accepts the field", () => {
    expect(parseSkillArguments("issue branch")).toEqual({
      ok: true,
      args: [
        { name: "issue", required: false },
        { name: "branch", required: false },
      ],
    });
    expect(parseSkillArguments([{ name: "env", required: true, values: ["dev", 1] }])).toEqual({
      ok: true,
      args: [{ name: "env", required: true, values: ["dev", "1"] }],
    });
    const ok = checkFrontmatter(
      { name: "x", description: "d", arguments: "a b" },
      { arguments: 4 },
      "x",
      "bundle",
    );
    expect(ok.issues).toEqual([]);
    const bad = checkFrontmatter(
      { name: "x", description: "d", arguments: ["ok", "not-a-name"] },
      { arguments: 4 },
      "x",
      "bundle",
    );
    expect(bad.issues).toEqual([
      expect.objectContaining({
        rule: "arguments",
        line: 4,
        blocking: false,
        message: expect.stringMatching(/not-a-name/),
      }),
    ]);
    expect(parseSkillArguments(["a", "a"])).toEqual({ ok: false, error: 'names "a" twice' });
    expect(parseSkillArguments(["ARGUMENTS"]).ok).toBe(false);
  });

  it("substitutes $name, $N, $ARGUMENTS[N] and $ARGUMENTS once, and appends text the body does not use", () => {
    const declared = [
      { name: "issue", required: true },
      { name: "branch", required: false },
    ];
    const named = { issue: "42 $branch", branch: "main" };
    expect(
      substituteArguments(
        "Fix $issue on $branch ($0/$1, $ARGUMENTS[1]); all: $ARGUMENTS; $other $9",
        declared,
        {
          named,
          text: "42 $branch main",
        },
      ),
    ).toBe("Fix 42 $branch on main (42 $branch/main, main); all: 42 $branch main; $other $9");
    expect(substituteArguments("Review it.\n", [], { named: {}, text: '"src/a b.ts" fast' })).toBe(
      'Review it.\n\nARGUMENTS: "src/a b.ts" fast',
    );
    expect(substituteArguments("Open $0 then $1", [], { named: {}, text: '"a b" c' })).toBe(
      "Open a b then c",
    );
  });
});
