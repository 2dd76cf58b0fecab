// Each guide in docs/guides/ shows its example file from examples/<way>/ word for word (the file
// test/package/guides.test.ts, or for LangChain and the Claude Agent SDK test/package/frameworks.test.ts,
// runs against the installed package and `npm run typecheck` compiles),
// and the README leads with the guides.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const GUIDES = path.join(ROOT, "docs", "guides");
const WAYS = [
  "getting-started",
  "anthropic",
  "openai-responses",
  "ai-sdk",
  "openai-agents",
  "langchain",
  "claude-agent-sdk",
  "serve",
  "cli",
];

describe("the guides", () => {
  it("one guide per way in, each with its example folder", () => {
    expect(readdirSync(GUIDES).sort()).toEqual(WAYS.map((w) => `${w}.md`).sort());
    for (const way of WAYS) expect(readdirSync(path.join(ROOT, "examples", way)).length).toBe(1);
  });

  it.each(WAYS)("%s: the guide's code block is its example file, importing the package by name", (way) => {
    const guide = readFileSync(path.join(GUIDES, `${way}.md`), "utf8");
    const [file] = readdirSync(path.join(ROOT, "examples", way));
    const source = readFileSync(path.join(ROOT, "examples", way, file!), "utf8");
    const block = /From \[[^\]]+\]\([^)]+\):\n\n```(?:ts|js|sh)\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(block).toBe(source);
    expect(guide).toContain(`(../../examples/${way}/${file})`);
    expect(source).not.toMatch(/from "\.\.?\//);
  });

  it("the README leads with them, before the station reference", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const guides = readme.indexOf("## Guides");
    expect(guides).toBeGreaterThan(0);
    expect(guides).toBeLessThan(readme.indexOf("## The six stations"));
    for (const way of WAYS) expect(readme).toContain(`(docs/guides/${way}.md)`);
  });
});
