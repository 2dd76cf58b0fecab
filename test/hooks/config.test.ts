// The hooks keys: Claude Code's settings format read from the files, the environment and --set,
// every layer kept, bad entries refused with what to do, an untrusted project's left out; and the
// matcher's semantics, on a linear-time engine.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configuredHooks } from "../../src/assemble/hooks.js";
import { loadConfig } from "../../src/config/index.js";
import { matcherProblem, matches } from "../../src/hooks/index.js";
import { tempProject, writeTree } from "../helpers/tmp.js";

const group = (command: string, matcher?: string) => ({
  ...(matcher !== undefined ? { matcher } : {}),
  hooks: [{ type: "command", command }],
});

describe("the hooks keys", () => {
  it("reads Claude Code's settings shape from every layer, keeping each, highest first", () => {
    const p = tempProject(
      { ".toolplane/config.json": JSON.stringify({ hooks: { PostToolUse: [group("project-post")] } }) },
      { trust: true },
    );
    const userDir = path.join(p.home, ".config", "toolplane");
    writeTree(userDir, {
      "config.json": JSON.stringify({ hooks: { PreToolUse: [group("user-pre", "Bash")] } }),
    });
    const config = loadConfig({
      cwd: p.repo,
      env: { ...p.bareEnv, TOOLPLANE_HOOKS_PRE_TOOL_USE: JSON.stringify([group("env-pre")]) },
      set: [
        `hooks=${JSON.stringify({ PreToolUse: [{ ...group("cli-pre"), hooks: [{ type: "command", command: "cli-pre", timeout: 2.5 }] }] })}`,
      ],
    });
    const entries = configuredHooks(config).map((e) => `${e.event} ${e.name} ${e.timeoutMs} ${e.source}`);
    expect(entries).toEqual([
      "PreToolUse cli-pre 2500 --set (cli)",
      "PreToolUse env-pre 60000 TOOLPLANE_HOOKS_PRE_TOOL_USE (env)",
      `PreToolUse user-pre 60000 ${path.join(userDir, "config.json")} (user)`,
      `PostToolUse project-post 60000 ${path.join(p.repo, ".toolplane", "config.json")} (project)`,
    ]);
  });

  it("refuses what toolplane would not run, saying what to do", () => {
    const p = tempProject();
    const load = (hooks: unknown) => () =>
      loadConfig({ cwd: p.repo, env: p.bareEnv, set: [`hooks=${JSON.stringify(hooks)}`] });
    expect(load({ Stop: [group("x")] })).toThrow(
      /hooks\.Stop.*is not an event toolplane runs.*PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure.*belongs to the harness/,
    );
    expect(load({ PreToolUse: [{ hooks: [{ type: "prompt", prompt: "ok?" }] }] })).toThrow(
      /command hooks only/,
    );
    expect(load({ PreToolUse: [group("x", "(?=Bash)")] })).toThrow(/not a regular expression RE2 accepts/);
    expect(load({ PreToolUse: [{ hooks: [{ type: "command", command: "x", timeout: 0 }] }] })).toThrow(
      /hooks\.PreToolUse/,
    );
  });

  it("an untrusted project's hooks are left out and reported; the user's run", () => {
    const p = tempProject({
      ".toolplane/config.json": JSON.stringify({ hooks: { PreToolUse: [group("touch pwned")] } }),
    });
    writeTree(path.join(p.home, ".config", "toolplane"), {
      "config.json": JSON.stringify({ hooks: { PreToolUse: [group("user-hook")] } }),
    });
    const config = loadConfig({ cwd: p.repo, env: p.bareEnv });
    expect(configuredHooks(config).map((e) => e.name)).toEqual(["user-hook"]);
    expect(config.trust.ignored).toEqual([
      {
        key: "hooks.PreToolUse",
        reason: "its hooks run commands from the repository around every call; they do not run",
        value: [group("touch pwned")],
      },
    ]);
  });
});

describe("matchers", () => {
  it("are Claude Code's: all, exact names with |, else a regex searched in the name; built-ins answer to Claude Code's names", () => {
    const cases: Array<[string | undefined, string, string, boolean]> = [
      [undefined, "read", "builtin", true],
      ["", "mcp__x__y", "mcp:x", true],
      ["*", "bash", "builtin", true],
      ["Bash", "bash", "builtin", true],
      ["Bash", "bash", "module:tools/b.mjs", false],
      ["bash", "bash", "builtin", true],
      ["Edit|MultiEdit|Write", "edit", "builtin", true],
      ["Edit|Write", "write", "builtin", true],
      ["Edit|Write", "read", "builtin", false],
      ["Edit", "edit_file", "module:x", false],
      ["mcp__github__.*", "mcp__github__create_issue", "mcp:github", true],
      ["mcp__github__.*", "mcp__gitlab__create_issue", "mcp:gitlab", false],
      ["Read", "ReadMe", "module:x", false],
      ["^Re", "read", "builtin", true],
    ];
    for (const [matcher, tool, namespace, expected] of cases)
      expect(matches(matcher, tool, namespace), `${matcher} ${tool}`).toBe(expected);
  });

  it("run in time linear in the name: a pattern that backtracks exponentially answers at once", () => {
    // a backtracking engine takes 2^n steps on these; RE2 takes n
    expect(matches("^(a|a)*$", `${"a".repeat(64)}!`, "x")).toBe(false);
    expect(matches("(x+x+)+y", "x".repeat(5000), "x")).toBe(false);
    expect(matcherProblem("(a)\\1")).toMatch(/RE2/);
    expect(matcherProblem("x".repeat(2000))).toMatch(/at most 1024/);
  });
});
