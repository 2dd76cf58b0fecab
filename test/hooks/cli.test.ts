// Hooks along a user's path: a user configuration with command hooks in Claude Code's format, and
// `toolplane call` (the calls of one test run side by side: each is a process of its own).
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ToolResult } from "../../src/execute/index.js";
import { CLI } from "../helpers/cli.js";
import { textOf } from "../helpers/host.js";
import { tempProject } from "../helpers/tmp.js";
import { alive, hookedProject as project } from "./fixture.js";

/** `toolplane call TOOL --args ARGS --json ...` as a process, without blocking the others. */
function call(
  cwd: string,
  env: NodeJS.ProcessEnv,
  tool: string,
  args: unknown,
  extra: string[] = [],
): Promise<{ code: number; result: ToolResult; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, "call", tool, "--args", JSON.stringify(args), "--json", ...extra],
      { cwd, env, timeout: 60_000 },
      (error, stdout, stderr) => {
        try {
          resolve({
            code: (error as { code?: number } | null)?.code ?? 0,
            result: JSON.parse(stdout),
            stderr,
          });
        } catch {
          reject(new Error(`toolplane call ${tool}: ${stderr}`));
        }
      },
    );
  });
}

const text = (r: { result: ToolResult }) => textOf(r.result);

// the tests run side by side too: each waits on processes
describe.concurrent("hooks through `toolplane call`", () => {
  it("block, deny, allow, updatedInput and additionalContext, as the model reads them; the input as the hook reads it", async () => {
    const p = project();
    const run = (tool: string, args: unknown) => call(p.repo, p.env, tool, args);
    const [blocked, denied, allowed, secret, rewritten, context] = await Promise.all([
      run("bash", { command: "echo BLOCKME" }),
      run("bash", { command: "echo DENYME" }),
      run("write", { path: "allowed.txt", content: "ALLOWME" }),
      run("write", { path: "secret/k.txt", content: "ALLOWME" }),
      run("bash", { command: "echo REWRITEME" }),
      run("read", { path: "CONTEXTME.txt" }),
    ]);
    // exit 2: the call is refused and the model reads the hook's stderr
    expect(blocked.code).toBe(1);
    expect(blocked.result.error?.code).toBe("permission_denied");
    expect(text(blocked)).toMatch(
      /bash was blocked by the PreToolUse hook `.*pre.sh`: blocked: no BLOCKME here/,
    );
    // a JSON deny refuses with its reason
    expect(text(denied)).toMatch(/bash was denied by the PreToolUse hook `.*pre.sh`: DENYME is not allowed/);
    // allow answers the write's ask (no --yes, no terminal: without it, denied), but not a deny rule
    expect(allowed.result.isError, text(allowed)).toBe(false);
    expect(readFileSync(path.join(p.repo, "allowed.txt"), "utf8")).toBe("ALLOWME");
    expect(text(secret)).toMatch(/denied for path "secret\/k.txt" .*secrets stay put/);
    expect(existsSync(path.join(p.repo, "secret"))).toBe(false);
    // the replacement is checked again: `echo x > out.txt` asks for its write, and nobody approves
    expect(text(rewritten)).toMatch(/bash \(write\) needs approval for path "out.txt"/);
    expect(existsSync(path.join(p.repo, "out.txt"))).toBe(false);
    // additionalContext from before and after the call, labelled, after the result
    expect(context.result.isError).toBe(false);
    expect(text(context)).toMatch(
      /context\n[\s\S]*\[PreToolUse hook `.*pre.sh` adds: remember the style guide\]/,
    );
    expect(text(context)).toMatch(/\[PostToolUse hook `.*post.sh` adds: post hook saw it\]/);
    expect(
      context.result.hooks?.map((h: { event: string; status: string }) => `${h.event}:${h.status}`),
    ).toEqual(["PreToolUse:ok", "PostToolUse:ok"]);

    // what the hooks read on stdin
    const inputs = readFileSync(path.join(p.repo, "pre.log"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const write = inputs.find(
      (i) => i.tool_input.content === "ALLOWME" && i.tool_input.file_path.endsWith("allowed.txt"),
    );
    expect(write).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      toolplane_tool_name: "write",
      tool_input: { file_path: path.join(p.repo, "allowed.txt"), content: "ALLOWME" },
      cwd: p.repo,
      permission_mode: "default",
    });
    expect(write.session_id).toMatch(/^session-/);
    expect(write.tool_use_id).toMatch(/^toolplane_/);
    const post = JSON.parse(readFileSync(path.join(p.repo, "post.json"), "utf8"));
    expect(post).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "Read",
      tool_input: { file_path: path.join(p.repo, "CONTEXTME.txt") },
      tool_response: { kind: "file", lines: ["context"] },
    });
    expect(post.tool_output).toContain("context");
    const pre = inputs.find((i) => i.tool_name === "Read");
    expect(post.tool_use_id).toBe(pre.tool_use_id);
  });

  it("a hook over its timeout is cut, its process group killed, and named; a Python check written for Claude Code blocks", async () => {
    const p = project();
    const slow = [
      {
        matcher: "Bash",
        hooks: [{ type: "command", command: `echo $$ > slow.pid; exec sleep 30`, timeout: 1 }],
      },
    ];
    const [cut, grep, cat] = await Promise.all([
      call(p.repo, p.env, "bash", { command: "echo slow" }, [
        "--set",
        `hooks.PreToolUse=${JSON.stringify(slow)}`,
      ]),
      call(p.repo, p.env, "bash", { command: "grep alpha a.txt" }),
      call(p.repo, p.env, "bash", { command: "cat a.txt" }, ["--yes"]),
    ]);
    expect(cut.result.error?.code, text(cut)).toBe("hook_error");
    expect(text(cut)).toMatch(
      /PreToolUse hook `echo \$\$ > slow.pid; exec sleep 30` did not answer: did not finish within 1 s \(its timeout\); it was stopped and its process group killed/,
    );
    expect(text(cut)).toMatch(/bash was not run/);
    expect(cut.result.hooks).toContainEqual(
      expect.objectContaining({ status: "failed", hook: expect.stringContaining("sleep 30") }),
    );
    expect(alive(Number(readFileSync(path.join(p.repo, "slow.pid"), "utf8")))).toBe(false);

    expect(text(grep)).toMatch(
      /bash was blocked by the PreToolUse hook `.*validate.py`: - use rg instead of grep/,
    );
    expect(cat.result.isError, text(cat)).toBe(false);
    expect(text(cat)).toContain("alpha");
  });

  it("an untrusted project's hooks do not run, and the CLI says so, naming `toolplane trust`", async () => {
    const files = {
      "a.txt": "alpha\n",
      ".toolplane/config.json": JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "touch hook-ran" }] }] },
      }),
    };
    const untrusted = tempProject(files);
    const trusted = tempProject(files, { trust: true });
    const [no, yes] = await Promise.all([
      call(untrusted.repo, untrusted.bareEnv, "read", { path: "a.txt" }),
      call(trusted.repo, trusted.bareEnv, "read", { path: "a.txt" }),
    ]);
    expect(no.result.isError).toBe(false);
    expect(existsSync(path.join(untrusted.repo, "hook-ran"))).toBe(false);
    expect(no.result.hooks).toBeUndefined();
    expect(no.stderr).toMatch(
      /left out: hooks\.PreToolUse; its hooks do not run\); run `toolplane trust .*`/,
    );
    expect(existsSync(path.join(trusted.repo, "hook-ran"))).toBe(true);
    expect(yes.result.hooks?.[0]).toMatchObject({
      event: "PreToolUse",
      status: "ok",
      hook: "touch hook-ran",
    });
  });
});
