// One command hook: /bin/sh -c in its own process group, its stdin, its environment, its caps,
// its timeout (the whole group killed), and its answer read per Claude Code's protocol.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { answerOf } from "../../src/hooks/answer.js";
import { HOOK_STDOUT_MAX_BYTES, runCommandHook } from "../../src/hooks/command.js";
import { hookEnvironment } from "../../src/hooks/environment.js";
import type { HookEntry } from "../../src/hooks/index.js";
import { tempDir } from "../helpers/tmp.js";

/** Running (a zombie waiting for its reaper has ended). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

const run = (
  command: string,
  opts: { input?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv; cwd?: string } = {},
) =>
  runCommandHook({
    command,
    input: opts.input ?? "{}",
    cwd: opts.cwd ?? tempDir(),
    env: opts.env ?? { PATH: process.env.PATH ?? "" },
    timeoutMs: opts.timeoutMs ?? 10_000,
  });

const entry = (event: HookEntry["event"]): HookEntry => ({
  event,
  matcher: undefined,
  name: "h",
  source: "test",
  timeoutMs: 1000,
  run: { kind: "command", command: "h" },
});

describe("running a command hook", () => {
  it("gets the input on stdin and answers with its exit code, stdout and stderr", async () => {
    const out = await run(`cat; echo " and err" >&2; exit 3`, { input: '{"a":1}' });
    expect(out).toEqual({ exitCode: 3, stdout: '{"a":1}', stderr: " and err\n" });
  });

  it("is cut at its timeout with everything it started, and says so", async () => {
    const dir = tempDir();
    // a grandchild in the background that outlives the shell unless the group is killed
    const out = await run(`sleep 30 & echo $! > bg.pid; echo $$ > sh.pid; wait`, {
      timeoutMs: 300,
      cwd: dir,
    });
    expect(out.failed).toMatch(
      /did not finish within 0.3 s \(its timeout\); it was stopped and its process group killed/,
    );
    const pids = ["bg.pid", "sh.pid"].map((f) => Number(readFileSync(path.join(dir, f), "utf8")));
    // killed, a process is gone once its new parent reaps it: a moment on a loaded machine
    for (const pid of pids) await expect.poll(() => alive(pid), { timeout: 3_000 }).toBe(false);
  });

  it("ends what it left running when it exits, so a background job holding its output does not hold the call", async () => {
    const dir = tempDir();
    const out = await run(`sleep 30 & echo $! > bg.pid; echo done`, { cwd: dir });
    expect(out).toMatchObject({ exitCode: 0, stdout: "done\n" });
    expect(out.failed).toBeUndefined();
    const bg = Number(readFileSync(path.join(dir, "bg.pid"), "utf8"));
    await expect.poll(() => alive(bg), { timeout: 3_000 }).toBe(false);
  });

  it("is stopped past the stdout cap (its answer is not read) and keeps stderr bounded", async () => {
    const out = await run(`yes x | head -c ${HOOK_STDOUT_MAX_BYTES + 10}; yes e | head -c 200000 >&2`);
    expect(out.failed).toMatch(/wrote more than 4194304 bytes to stdout/);
    expect(out.stdout.length).toBe(HOOK_STDOUT_MAX_BYTES);
    const err = await run(`yes e | head -c 200000 >&2`);
    expect(err.stderr.length).toBeLessThan(70_000);
    expect(err.stderr).toMatch(/\[stderr cut at 65536 bytes\]$/);
  });

  it("sees the environment bash commands get, with the project folder under both names", async () => {
    const env = hookEnvironment(
      {
        PATH: process.env.PATH,
        HOME: "/home/u",
        TOOLPLANE_SERVE_TOKEN: "tok",
        OPENAI_API_KEY: "sk-1",
        MY_VAR: "m",
      },
      ["MY_VAR"],
      "/repo",
    );
    const out = await run("env", { env });
    const vars = Object.fromEntries(
      out.stdout
        .trim()
        .split("\n")
        .map((l) => l.split(/=(.*)/s).slice(0, 2)),
    );
    expect(vars).toMatchObject({
      HOME: "/home/u",
      MY_VAR: "m",
      CLAUDE_PROJECT_DIR: "/repo",
      TOOLPLANE_PROJECT_DIR: "/repo",
    });
    expect(vars.TOOLPLANE_SERVE_TOKEN).toBeUndefined();
    expect(vars.OPENAI_API_KEY).toBeUndefined();
  });
});

describe("reading its answer", () => {
  const exit = (exitCode: number | null, stdout = "", stderr = "") => ({
    kind: "exit" as const,
    exit: { exitCode, stdout, stderr },
  });

  it("exit 2 blocks with stderr; another exit is a non-blocking error; stdout that is not JSON is not read", () => {
    expect(answerOf(entry("PreToolUse"), exit(2, '{"decision":"approve"}', "no\n"), 1)).toMatchObject({
      status: "blocked",
      decision: "deny",
      reason: "no",
    });
    expect(answerOf(entry("PostToolUse"), exit(2, "", "lint\n"), 1)).toMatchObject({
      status: "blocked",
      block: true,
      reason: "lint",
    });
    expect(answerOf(entry("PreToolUse"), exit(1, "", "broke"), 1)).toMatchObject({
      status: "error",
      detail: "it exited 1: broke",
    });
    const plain = answerOf(entry("PreToolUse"), exit(0, "hello"), 1);
    expect(plain.status).toBe("ok");
    expect(plain.decision).toBeUndefined();
  });

  it("reads each event's JSON fields, the older approve/block, and refuses an answer that is not the protocol's", () => {
    const pre = (out: unknown) => answerOf(entry("PreToolUse"), exit(0, JSON.stringify(out)), 1);
    expect(pre({ decision: "block", reason: "old" })).toMatchObject({ decision: "deny", reason: "old" });
    expect(pre({ decision: "approve" })).toMatchObject({ decision: "allow" });
    expect(
      pre({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "ask",
          permissionDecisionReason: "why",
        },
      }),
    ).toMatchObject({ decision: "ask", reason: "why" });
    expect(pre({ continue: false, stopReason: "halt" })).toMatchObject({ decision: "deny", stop: "halt" });
    expect(pre({ hookSpecificOutput: { permissionDecision: "Deny" } })).toMatchObject({ status: "error" });
    expect(
      pre({ hookSpecificOutput: { hookEventName: "PostToolUse", permissionDecision: "deny" } }).decision,
    ).toBeUndefined();
    expect(pre([1])).toMatchObject({ status: "error", detail: /expected a JSON object/ });
    const ask = answerOf(
      entry("PermissionRequest"),
      exit(
        0,
        JSON.stringify({
          hookSpecificOutput: { decision: { behavior: "deny", message: "m", interrupt: true } },
        }),
      ),
      1,
    );
    expect(ask).toMatchObject({ decision: "deny", reason: "m", stop: "m" });
  });
});
