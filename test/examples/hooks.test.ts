// docs/hooks.md's examples, run: the project folder with its three hook scripts (trusted, as its
// user would), and the harness's in-process hooks, which the page shows word for word.
import { cpSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../examples/hooks/harness.js";
import { Toolplane } from "../../src/assemble/index.js";
import { ROOT } from "../helpers/cli.js";
import { textOf } from "../helpers/host.js";
import { tempProject } from "../helpers/tmp.js";

const planes: Toolplane[] = [];
afterEach(async () => {
  for (const p of planes.splice(0)) await p.close();
});

describe("docs/hooks.md's examples", () => {
  it("the project's hooks: a force push blocked, a lockfile denied, npm publish made a dry run and checked again, a TODO noted", async () => {
    const p = tempProject({ "package-lock.json": "{}\n" }, { trust: true });
    cpSync(path.join(ROOT, "examples", "hooks", "project"), p.repo, { recursive: true });
    const plane = await Toolplane.open({
      cwd: p.repo,
      env: p.bareEnv,
      bundledSkills: null,
      set: ["tools.sandbox=off"],
    });
    planes.push(plane);
    const host = plane.host({ ask: (req) => req.tool === "write" });
    const [push, lock, publish, todo] = await host.run([
      { tool: "bash", args: { command: "git push --force origin main" } },
      { tool: "write", args: { path: "package-lock.json", content: "{}\n" } },
      { tool: "bash", args: { command: "npm publish" } },
      { tool: "write", args: { path: "notes.md", content: "TODO: one\nTODO: two\n" } },
    ]);
    expect(textOf(push!)).toMatch(
      /blocked by the PreToolUse hook .*guard-commands.mjs.*: Force pushes are not allowed here/,
    );
    expect(textOf(lock!)).toMatch(
      /denied by the PreToolUse hook .*protect-lockfiles.mjs.*: package-lock.json is written by the package manager/,
    );
    // the rewritten command asks like any other, and this harness approves writes only
    expect(textOf(publish!)).toMatch(/bash \(command\) needs approval for pattern "npm publish --dry-run"/);
    expect(todo!.isError, textOf(todo!)).toBe(false);
    expect(textOf(todo!)).toContain(
      `[PostToolUse hook \`node "$CLAUDE_PROJECT_DIR/.toolplane/hooks/after-edit.mjs"\` adds: ${path.join(p.repo, "notes.md")} still has 2 TODO line(s).]`,
    );
  });

  it("the harness's hooks, the page's block word for word: an audit line, and writes under docs/ approved", async () => {
    const page = readFileSync(path.join(ROOT, "docs", "hooks.md"), "utf8");
    const file = readFileSync(path.join(ROOT, "examples", "hooks", "harness.ts"), "utf8");
    expect(/```ts\n([\s\S]*?)```/.exec(page.slice(page.indexOf("\n## In-process hooks")))?.[1]).toBe(file);
    const p = tempProject();
    mkdirSync(path.join(p.repo, "docs"));
    const { results, audit } = await main(p.repo, p.bareEnv);
    expect(results.map((r) => r.isError)).toEqual([false, true]);
    expect(results[1]?.error?.code).toBe("permission_denied");
    expect(audit).toEqual([
      `Write ${JSON.stringify({ file_path: path.join(p.repo, "docs", "notes.md"), content: "# Notes\n" })}`,
    ]);
  });
});
