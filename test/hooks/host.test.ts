// Hooks through the host a harness gets from the plane: what a PreToolUse allow may and may not
// answer, updatedInput checked again, PermissionRequest before the approver, what Post hooks add
// to the result, timeouts, throws, parallel calls and the asks' chain.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/index.js";
import type { AskRequest } from "../../src/execute/index.js";
import type { HookInput, HookOutput, InProcessHooks } from "../../src/hooks/index.js";
import { AskBroker, runCall } from "../../src/inspect/calls.js";
import { sandboxSupport } from "../../src/tools/index.js";
import { textOf } from "../helpers/host.js";
import { tempProject } from "../helpers/tmp.js";

const planes: Toolplane[] = [];
afterEach(async () => {
  for (const p of planes.splice(0)) await p.close();
});

async function open(files: Record<string, string> = {}, set: string[] = []) {
  const p = tempProject(files);
  const plane = await Toolplane.open({ cwd: p.repo, env: p.bareEnv, bundledSkills: null, set });
  planes.push(plane);
  return { plane, repo: p.repo };
}

const allow: HookOutput = {
  hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" },
};
const allowAll: InProcessHooks = { PreToolUse: [() => allow] };

describe("a PreToolUse allow answers an ask, and nothing a rule could not allow", () => {
  it("runs a write that would ask, but not past a deny rule, the boundary, a protected path, the tool's own ask or an ask rule", async () => {
    const rules = [
      { effect: "deny", path: "secret/**", reason: "secrets stay" },
      { effect: "ask", tool: "read", path: "asked.txt" },
    ];
    const { plane, repo } = await open({ "asked.txt": "x\n" }, [
      `permissions.rules=${JSON.stringify(rules)}`,
    ]);
    const without = await plane.host().call({ tool: "write", args: { path: "a.txt", content: "a\n" } });
    expect(without.error?.code).toBe("permission_denied");
    expect(existsSync(path.join(repo, "a.txt"))).toBe(false);

    const host = plane.host({ hooks: allowAll });
    const written = await host.call({ tool: "write", args: { path: "a.txt", content: "a\n" } });
    expect(written.isError, textOf(written)).toBe(false);
    expect(readFileSync(path.join(repo, "a.txt"), "utf8")).toBe("a\n");

    const refused = [
      [
        { tool: "write", args: { path: "secret/k.txt", content: "k" } },
        /denied for path "secret\/k.txt" by rule #1.*secrets stay/,
      ],
      [{ tool: "write", args: { path: "../out.txt", content: "o" } }, /workspace boundary/],
      [{ tool: "write", args: { path: ".git/hooks/pre-commit", content: "#!/bin/sh" } }, /is protected/],
      [{ tool: "bash", args: { command: "eval echo hi" } }, /needs approval .*by the tool/],
      [{ tool: "read", args: { path: "asked.txt" } }, /needs approval .*rule #2/],
      [{ tool: "read", args: { path: ".env" } }, /sensitive file/],
    ] as const;
    for (const [call, why] of refused) {
      const r = await host.call(call);
      expect(r.error?.code, `${call.tool} ${JSON.stringify(call.args)}: ${textOf(r)}`).toBe(
        "permission_denied",
      );
      expect(textOf(r)).toMatch(why);
    }
    expect(existsSync(path.join(repo, "secret"))).toBe(false);
    expect(existsSync(path.join(repo, ".git", "hooks", "pre-commit"))).toBe(false);
  });
});

describe("updatedInput replaces the arguments and goes through the whole check again", () => {
  const rewrite = (command: string, decision?: "allow"): InProcessHooks => ({
    PreToolUse: [
      {
        matcher: "Bash",
        hook: () => ({
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            updatedInput: { command },
            ...(decision ? { permissionDecision: decision } : {}),
          },
        }),
      },
    ],
  });
  const echoes = `permissions.rules=${JSON.stringify([{ effect: "allow", action: "command", pattern: "echo *" }])}`;

  it("cannot turn `echo harmless` into an unasked write, with or without its own allow", async () => {
    const { plane, repo } = await open({}, [echoes, "tools.sandbox=off"]);
    expect(textOf(await plane.host().call({ tool: "bash", args: { command: "echo harmless" } }))).toContain(
      "harmless",
    );
    for (const decision of [undefined, "allow"] as const) {
      const r = await plane
        .host({ hooks: rewrite("echo x > out.txt", decision) })
        .call({ tool: "bash", args: { command: "echo harmless" } });
      expect(r.error?.code, textOf(r)).toBe("permission_denied");
      expect(textOf(r)).toMatch(/bash \(write\) needs approval for path "out.txt"/);
      expect(existsSync(path.join(repo, "out.txt"))).toBe(false);
    }
  });

  it("runs the replacement when it passes; refuses one that does not fit the schema, naming the hook", async () => {
    const { plane } = await open({ "b.txt": "bee\n" }, [echoes, "tools.sandbox=off"]);
    const r = await plane
      .host({ hooks: rewrite("echo rewritten") })
      .call({ tool: "bash", args: { command: "echo a" } });
    expect(textOf(r)).toContain("rewritten");
    expect(r.hooks?.[0]).toMatchObject({ event: "PreToolUse", updatedInput: true, status: "ok" });

    const bad = await plane
      .host({
        hooks: {
          PreToolUse: [() => ({ hookSpecificOutput: { updatedInput: { command: "ls", timeout: 5 } } })],
        },
      })
      .call({ tool: "bash", args: { command: "echo a" } });
    expect(bad.error?.code).toBe("hook_error");
    expect(textOf(bad)).toMatch(
      /PreToolUse hook `\(anonymous function\)` replaced the arguments .* do not fit bash's schema/,
    );
    expect(textOf(bad)).toMatch(/\/timeout: is not a parameter/);

    // a built-in's input in Claude Code's names (file_path, absolute) maps back to the tool's own
    let seen: HookInput | undefined;
    const read = await plane
      .host({
        hooks: {
          PreToolUse: [
            {
              matcher: "Read",
              hook: (input) => {
                seen = input;
                return { hookSpecificOutput: { updatedInput: { ...input.tool_input, file_path: "b.txt" } } };
              },
            },
          ],
        },
      })
      .call({ tool: "read", args: { path: "a-missing.txt" } });
    expect(seen).toMatchObject({ tool_name: "Read", toolplane_tool_name: "read" });
    expect(seen?.tool_input).toEqual({ file_path: path.join(plane.config.cwd, "a-missing.txt") });
    expect(textOf(read)).toContain("bee");
  });

  it("two hooks rewriting differently refuse the call; a deny wins over a rewrite", async () => {
    const { plane } = await open({}, [echoes]);
    const two = await plane
      .host({
        hooks: {
          PreToolUse: [
            () => ({ hookSpecificOutput: { updatedInput: { command: "echo one" } } }),
            () => ({ hookSpecificOutput: { updatedInput: { command: "echo two" } } }),
          ],
        },
      })
      .call({ tool: "bash", args: { command: "echo a" } });
    expect(two.error?.code).toBe("hook_error");
    expect(textOf(two)).toMatch(/replaced the arguments differently/);
  });
});

describe("PermissionRequest answers an ask before the approver", () => {
  it("allow runs it and deny refuses it without asking; no decision goes to the approver", async () => {
    const { plane, repo } = await open();
    const asked: AskRequest[] = [];
    const ask = (req: AskRequest) => {
      asked.push(req);
      return false;
    };
    const answer = (behavior: "allow" | "deny" | undefined): InProcessHooks => ({
      PermissionRequest: [
        (input) => {
          expect(input).toMatchObject({
            hook_event_name: "PermissionRequest",
            tool_name: "Write",
            permission_suggestions: [],
            toolplane_asks: [{ action: "write", subject: 'path "p.txt"' }],
          });
          expect(input.decision_reason).toMatch(/write \(write\) needs approval/);
          return behavior
            ? {
                hookSpecificOutput: {
                  hookEventName: "PermissionRequest",
                  decision: { behavior, message: "not today" },
                },
              }
            : undefined;
        },
      ],
    });
    const call = { tool: "write", args: { path: "p.txt", content: "p" } };
    const allowed = await plane.host({ ask, hooks: answer("allow") }).call(call);
    expect(allowed.isError, textOf(allowed)).toBe(false);
    expect(asked).toEqual([]);
    const denied = await plane.host({ ask, hooks: answer("deny") }).call(call);
    expect(textOf(denied)).toMatch(/write was denied by the PermissionRequest hook .*: not today/);
    expect(asked).toEqual([]);
    const undecided = await plane.host({ ask, hooks: answer(undefined) }).call(call);
    expect(undecided.error?.code).toBe("permission_denied");
    expect(asked).toHaveLength(1);
    expect(readFileSync(path.join(repo, "p.txt"), "utf8")).toBe("p");
  });

  it("an allow with updatedInput: the new arguments are checked, and what they ask goes to the approver", async () => {
    const { plane, repo } = await open();
    const asked: AskRequest[] = [];
    const r = await plane
      .host({
        ask: (req) => {
          asked.push(req);
          return false;
        },
        hooks: {
          PermissionRequest: [
            (input) => ({
              hookSpecificOutput: {
                decision: {
                  behavior: "allow",
                  updatedInput: { ...input.tool_input, file_path: ".git/config" },
                },
              },
            }),
          ],
        },
      })
      .call({ tool: "write", args: { path: "q.txt", content: "q" } });
    expect(r.error?.code).toBe("permission_denied");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.decision.message).toMatch(/\.git is protected/);
    expect(existsSync(path.join(repo, "q.txt"))).toBe(false);
  });
});

describe("after the call", () => {
  it("PostToolUse's additionalContext and block reach the result, labelled; PostToolUseFailure runs on a failure", async () => {
    const { plane } = await open({ "c.txt": "sea\n" });
    let post: HookInput | undefined;
    const host = plane.host({
      hooks: {
        PreToolUse: [() => ({ hookSpecificOutput: { additionalContext: "pre says hi" } })],
        PostToolUse: [
          {
            name: "lint",
            hook: (input) => {
              post = input;
              return {
                decision: "block",
                reason: "lint failed",
                hookSpecificOutput: { additionalContext: "ran lint" },
              };
            },
          },
        ],
        PostToolUseFailure: [
          {
            name: "explain",
            hook: (input) => ({ hookSpecificOutput: { additionalContext: `saw ${input.error_code}` } }),
          },
        ],
      },
    });
    const ok = await host.call({ id: "c1", tool: "read", args: { path: "c.txt" } });
    expect(ok.isError).toBe(false);
    const text = textOf(ok);
    expect(text).toContain("sea");
    expect(text).toContain("[PreToolUse hook `(anonymous function)` adds: pre says hi]");
    expect(text).toContain("[PostToolUse hook `lint` flags this result: lint failed]");
    expect(text).toContain("[PostToolUse hook `lint` adds: ran lint]");
    expect(post).toMatchObject({
      tool_use_id: "c1",
      tool_name: "Read",
      tool_response: { kind: "file", path: "c.txt" },
    });
    expect(post?.tool_output).toContain("sea");

    const failed = await host.call({ tool: "read", args: { path: "nope.txt" } });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain("[PostToolUseFailure hook `explain` adds: saw tool_error]");
    // a call refused before it ran has no Post hooks
    const refused = await host.call({ tool: "read", args: { path: "../x" } });
    expect(refused.hooks?.map((h) => h.event)).toEqual(["PreToolUse"]);
  });

  it("a cancelled turn stops the call; PostToolUseFailure still runs and sees is_interrupt", async () => {
    const rules = [{ effect: "allow", action: "command", pattern: "sleep *" }];
    const { plane } = await open({}, [`permissions.rules=${JSON.stringify(rules)}`, "tools.sandbox=off"]);
    const seen: HookInput[] = [];
    const turn = new AbortController();
    const host = plane.host({
      hooks: {
        PreToolUse: [() => void setTimeout(() => turn.abort(), 100)],
        PostToolUseFailure: [(input) => void seen.push(input)],
      },
    });
    const [r] = await host.run([{ tool: "bash", args: { command: "sleep 5" } }], { signal: turn.signal });
    expect(r?.error?.code).toBe("aborted");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      hook_event_name: "PostToolUseFailure",
      error_code: "aborted",
      is_interrupt: true,
    });
  });

  it("a hook that never answers is cut at its timeout and refuses the call; one that throws does not", async () => {
    const { plane } = await open({ "d.txt": "dee\n" });
    const lines: string[] = [];
    const hung = await plane
      .host({ hooks: { PreToolUse: [{ name: "hangs", timeout: 0.2, hook: () => new Promise(() => {}) }] } })
      .call({ tool: "read", args: { path: "d.txt" } });
    expect(hung.error?.code).toBe("hook_error");
    expect(textOf(hung)).toMatch(/PreToolUse hook `hangs` did not answer: did not finish within 0.2 s/);
    expect(textOf(hung)).not.toContain("dee");

    const threw = await plane
      .host({
        log: (l) => lines.push(l),
        hooks: {
          PreToolUse: [
            function broken() {
              throw new Error("oops");
            },
          ],
        },
      })
      .call({ tool: "read", args: { path: "d.txt" } });
    expect(textOf(threw)).toContain("dee");
    expect(threw.hooks?.[0]).toMatchObject({ status: "error", detail: "it threw: oops" });
    expect(lines.join("\n")).toMatch(/PreToolUse hook `broken` failed \(the call goes on\): it threw: oops/);
  });
});

describe("one turn", () => {
  it("runs each call's PreToolUse hooks in parallel, and puts the asks (PermissionRequest, then the approver) one at a time", async () => {
    const { plane } = await open({ "e.txt": "e\n", "f.txt": "f\n", ".env": "K=1\n" });
    let arrive: () => void = () => {};
    let arrived = 0;
    const both = new Promise<void>((resolve) => {
      arrive = () => {
        if (++arrived === 2) resolve();
      };
    });
    let inside = 0;
    let most = 0;
    const host = plane.host({
      ask: async () => {
        inside++;
        most = Math.max(most, inside);
        await new Promise((r) => setTimeout(r, 20));
        inside--;
        return true;
      },
      hooks: {
        // each waits for the other: run one after the other, they would time out
        PreToolUse: [
          {
            timeout: 5,
            hook: async (input) => {
              if (input.tool_input.file_path !== undefined) {
                arrive();
                await both;
              }
            },
          },
        ],
        PermissionRequest: [
          async () => {
            inside++;
            most = Math.max(most, inside);
            await new Promise((r) => setTimeout(r, 20));
            inside--;
          },
        ],
      },
    });
    const results = await host.run([
      { id: "1", tool: "read", args: { path: "e.txt" } },
      { id: "2", tool: "read", args: { path: "f.txt" } },
    ]);
    expect(results.map((r) => r.isError)).toEqual([false, false]);
    const asks = await host.run([
      { id: "3", tool: "read", args: { path: ".env" } },
      { id: "4", tool: "grep", args: { pattern: "K", path: ".env" } },
    ]);
    expect(asks.map((r) => r.isError)).toEqual([false, false]);
    expect(most).toBe(1);
  });
});

describe("where hooks come from", () => {
  it("matchers use Claude Code's names and regexes; plane.hooks.on reaches every host until removed; identical commands run once", async () => {
    const { plane, repo } = await open({ "g.txt": "g\n" });
    const seen: string[] = [];
    const hook = (tag: string) => (input: HookInput) => {
      seen.push(`${tag}:${input.toolplane_tool_name}`);
    };
    const off = plane.hooks.on("PreToolUse", { matcher: "Edit|MultiEdit|Write", hook: hook("edits") });
    plane.hooks.on("PreToolUse", { matcher: "^(Read|gr)", hook: hook("regex") });
    plane.hooks.on("PreToolUse", { matcher: "mcp__.*", hook: hook("mcp") });
    const host = plane.host();
    await host.call({ tool: "read", args: { path: "g.txt" } });
    await host.call({ tool: "grep", args: { pattern: "g" } });
    await host.call({ tool: "glob", args: { pattern: "*.txt" } });
    await plane.host({ ask: () => true }).call({ tool: "write", args: { path: "h.txt", content: "h" } });
    off();
    await plane.host({ ask: () => true }).call({ tool: "write", args: { path: "i.txt", content: "i" } });
    expect(seen).toEqual(["regex:read", "regex:grep", "edits:write"]);

    const log = path.join(repo, "log.txt");
    const group = { hooks: [{ type: "command", command: `echo ran >> ${log}` }] };
    const twice = await Toolplane.open({
      cwd: repo,
      env: { HOME: path.dirname(repo) },
      bundledSkills: null,
      set: [
        `hooks.PreToolUse=${JSON.stringify([
          { matcher: "Read", ...group },
          { matcher: "*", ...group },
        ])}`,
      ],
    });
    planes.push(twice);
    await twice.host().call({ tool: "read", args: { path: "g.txt" } });
    expect(readFileSync(log, "utf8")).toBe("ran\n");
  });
});

describe("the inspector's trace", () => {
  it("shows each hook that ran on a call, with what it decided, among the permission decisions", async () => {
    const { plane } = await open({ "j.txt": "j\n" });
    plane.hooks.on("PreToolUse", {
      name: "guard",
      hook: () => ({
        hookSpecificOutput: { permissionDecision: "ask", permissionDecisionReason: "look first" },
      }),
    });
    plane.hooks.on("PermissionRequest", {
      name: "auto",
      hook: () => ({ hookSpecificOutput: { decision: { behavior: "allow" } } }),
    });
    const view = await runCall(plane, new AskBroker(() => {}), "read", { path: "j.txt" });
    expect(view.result.isError).toBe(false);
    expect(view.trace.map((t) => `${t.kind}:${t.effect ?? ""}:${t.subject ?? ""}`)).toEqual([
      "hook:ask:PreToolUse",
      'decision:allow:path "j.txt"',
      "decision:ask:the call",
      "hook:allow:PermissionRequest",
    ]);
    expect(view.trace[0]).toMatchObject({
      message: "look first",
      decidedBy: "PreToolUse hook guard (in-process (plane.hooks))",
      hook: { status: "ok" },
    });
  });
});

describe("a hook's script runs outside the sandbox, so the model may not rewrite it", () => {
  const script = ".claude/hooks/check.mjs";
  const hooks = [{ hooks: [{ type: "command", command: `node "$CLAUDE_PROJECT_DIR/${script}"` }] }];
  const rules = [
    { effect: "allow", action: "write" },
    { effect: "allow", tool: "bash" },
  ];
  const set = [`hooks.PostToolUse=${JSON.stringify(hooks)}`, `permissions.rules=${JSON.stringify(rules)}`];

  it("a write to it asks even where every write is allowed (the permission check)", async () => {
    const { plane, repo } = await open({ [script]: "// checks\n" }, set);
    const host = plane.host();
    for (const call of [
      { tool: "write", args: { path: script, content: "process.exit(0)" } },
      { tool: "bash", args: { command: `echo 'process.exit(0)' > ${script}` } },
    ]) {
      const r = await host.call(call);
      expect(r.error?.code, textOf(r)).toBe("permission_denied");
      expect(textOf(r)).toMatch(/check.mjs is protected/);
    }
    expect(readFileSync(path.join(repo, script), "utf8")).toBe("// checks\n");
  });

  it.skipIf(!sandboxSupport().available)(
    "and the sandbox keeps it read-only for a write bash could not see",
    async () => {
      const { plane, repo } = await open({ [script]: "// checks\n" }, [
        ...set,
        "tools.sandbox=workspace-write",
      ]);
      const r = await plane
        .host({ ask: () => true })
        .call({ tool: "bash", args: { command: `sh -c 'echo pwned > ${script}'; echo done` } });
      expect(textOf(r)).toMatch(/Read-only file system|Permission denied/);
      expect(readFileSync(path.join(repo, script), "utf8")).toBe("// checks\n");
    },
  );
});
