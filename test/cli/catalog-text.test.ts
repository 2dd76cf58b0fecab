// What the model reads, through the CLI: skill descriptions written over several lines are one
// line each in the system text, and zod's safe-integer bounds never reach a schema.
import { describe, expect, it } from "vitest";
import { runCli, runJson } from "../helpers/cli.js";
import { listingOf } from "../helpers/listing.js";
import { tempProject } from "../helpers/tmp.js";

describe("catalog text", () => {
  it("a multi-line skill description is folded to one line in the system text", () => {
    const p = tempProject({
      ".claude/skills/demo/SKILL.md":
        "---\nname: demo\ndescription: |\n  Deploys the app.\n  Use it for staging only.\n\n  Never for production.\n---\nBody.\n",
      ".claude/skills/plain/SKILL.md": "---\nname: plain\ndescription: One line.\n---\nBody.\n",
    });
    const out = runJson(["catalog", "--cwd", p.repo], { env: p.bareEnv });
    const lines = listingOf(out).split("\n");
    expect(lines).toContain("- demo: Deploys the app. Use it for staging only. Never for production.");
    expect(lines).toContain("- plain: One line.");
    // the skill list is one line per skill, after its header
    const start = lines.findIndex((l: string) => l.startsWith("Available skills"));
    expect(lines.slice(start + 1, start + 3).every((l: string) => l.startsWith("- "))).toBe(true);
    // the canonical description keeps its lines (toolplane skills --json shows it as written)
    const skills = runJson(["skills", "--cwd", p.repo], { env: p.bareEnv });
    expect(skills.skills.find((s: { name: string }) => s.name === "demo").description).toContain("\n");
  });

  it.each(["anthropic", "openai-chat", "openai-responses", "gemini", "mcp"])(
    "%s: no safe-integer bound in any schema (the built-ins declare integers with zod)",
    (provider) => {
      const p = tempProject();
      const out = runJson(["catalog", "--cwd", p.repo, "--provider", provider], { env: p.env });
      const text = JSON.stringify(out.tools);
      expect(text).toContain('"integer"');
      expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    },
  );

  it("the text shows the prefixHash --json and the library give: all 64 hex digits, one form", () => {
    const p = tempProject();
    const json = runJson(["catalog", "--cwd", p.repo], { env: p.env }).prefixHash;
    expect(json).toMatch(/^[0-9a-f]{64}$/);
    const text = runCli(["catalog", "--cwd", p.repo], { env: p.env }).stdout;
    expect(/prefixHash: (\S+)/.exec(text)?.[1]).toBe(json);
  });
});
