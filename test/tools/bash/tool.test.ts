import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CODING_ACTION_DEFAULTS } from "../../../src/assemble/policy.js";
import type { AskRequest } from "../../../src/execute/index.js";
import type { PermissionRule } from "../../../src/permissions/index.js";
import { bashTool } from "../../../src/tools/bash/tool.js";
import { testHost, textOf } from "../../helpers/host.js";
import { processesWith } from "../../helpers/processes.js";
import { tempDir } from "../../helpers/tmp.js";

const ALL: PermissionRule[] = [
  { effect: "allow", action: "command" },
  { effect: "allow", action: "write" },
];

/** A host over bash with the session's defaults: command and write ask unless a rule allows them. */
function shell(
  rules: PermissionRule[],
  opts: { ask?: (r: AskRequest) => boolean; config?: Record<string, unknown> } = {},
) {
  return testHost([bashTool()], {
    rules,
    policy: { actionDefaults: CODING_ACTION_DEFAULTS },
    config: { "tools.sandbox": "off", ...opts.config },
    ...(opts.ask ? { ask: opts.ask } : {}),
  });
}

const run = (h: ReturnType<typeof shell>, command: string) =>
  h.host.call({ tool: "bash", args: { command } });

describe("bash permissions: each simple command and each write decided on its own", () => {
  it("runs `echo hi` under an allow for `echo *`, but asks for the write of `echo x > out.txt`", async () => {
    const asked: AskRequest[] = [];
    const h = shell([{ effect: "allow", action: "command", pattern: "echo *" }]);
    const hi = await run(h, "echo hi");
    expect(hi.isError).toBe(false);
    expect(textOf(hi)).toContain("hi");
    const out = await run(h, "echo x > out.txt");
    expect(out.error?.code).toBe("permission_denied");
    expect(out.error?.message).toMatch(/write.*out\.txt/);
    expect(existsSync(path.join(h.workspace, "out.txt"))).toBe(false);

    const approving = shell([{ effect: "allow", action: "command", pattern: "echo *" }], {
      ask: (r) => {
        asked.push(r);
        return true;
      },
    });
    const ok = await run(approving, "echo x > out.txt");
    expect(ok.isError).toBe(false);
    expect(readFileSync(path.join(approving.workspace, "out.txt"), "utf8")).toBe("x\n");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.request.action).toBe("write");
  });

  it("an allow for one command never carries another: `git status; rm -rf x` asks for rm", async () => {
    const h = shell([{ effect: "allow", action: "command", pattern: "git status*" }]);
    const r = await run(h, "git status; rm -rf x");
    expect(r.error?.code).toBe("permission_denied");
    expect(r.error?.message).toContain('"rm -rf x"');
  });

  it("a deny for a command reaches it inside $(...), pipes, subshells and by path", async () => {
    const rules: PermissionRule[] = [...ALL, { effect: "deny", action: "command", pattern: "curl *" }];
    const h = shell(rules);
    for (const line of [
      "echo $(curl -s x)",
      "ls | curl -d @- x",
      "(curl x)",
      "/usr/bin/curl x",
      "timeout 5 curl x",
      "cat <(curl x)",
    ]) {
      const r = await run(h, line);
      expect(r.error?.code, line).toBe("permission_denied");
    }
  });

  it("eval, source and a command named by a variable ask even when every command is allowed", async () => {
    const h = shell(ALL);
    for (const line of ['eval "echo hi"', "source ./x.sh", "$CMD --version", "echo 'unterminated"]) {
      const r = await run(h, line);
      expect(r.error?.code, line).toBe("permission_denied");
      expect(r.error?.message, line).toMatch(/needs approval.*the tool:/);
    }
  });

  it("a write outside the workspace is denied whatever the rules say", async () => {
    const h = shell(ALL, { ask: () => true });
    const outside = path.join(tempDir("tp-outside-"), "x.txt");
    const r = await run(h, `echo x > ${outside}`);
    expect(r.error?.code).toBe("permission_denied");
    expect(r.error?.message).toContain("workspace boundary");
    expect(existsSync(outside)).toBe(false);
  });

  it("a path deny rule covers a recursive delete of the folder above it", async () => {
    const h = shell([...ALL, { effect: "deny", action: "write", path: "src/secret/**" }]);
    const r = await run(h, "rm -rf src");
    expect(r.error?.code).toBe("permission_denied");
    expect(r.error?.message).toContain('path "src"');
  });

  it("a glob target is expanded to the files it names, so a deny on one of them holds", async () => {
    const h = shell([...ALL, { effect: "deny", action: "write", path: "keep.log" }]);
    writeFileSync(path.join(h.workspace, "keep.log"), "");
    writeFileSync(path.join(h.workspace, "a.log"), "");
    const r = await run(h, "rm *.log");
    expect(r.error?.code).toBe("permission_denied");
    expect(existsSync(path.join(h.workspace, "keep.log"))).toBe(true);
  });
});

describe("bash under the host", () => {
  it("gives the exit code in the value and the text, stdout and stderr interleaved", async () => {
    const h = shell(ALL, { ask: () => true });
    const r = await run(h, "echo one; echo two >&2; echo three; exit 3");
    expect(r.isError).toBe(false);
    expect(textOf(r)).toMatch(/one\ntwo\nthree\n[\s\S]*\[exit code 3\]/);
    const quiet = await run(h, "true");
    expect(textOf(quiet)).toBe("(no output)\n[exit code 0]");
    // a command that closes the fd the final directory is reported on: no noise, directory kept
    const closed = await run(h, "exec 3>&-; echo ok");
    expect(textOf(closed)).toMatch(/^ok\n\n?\[exit code 0\]$/);
  });

  it("keeps the working directory per session, inside the workspace", async () => {
    const h = shell(ALL);
    mkdirSync(path.join(h.workspace, "a", "b"), { recursive: true });
    expect(textOf(await run(h, "cd a/b"))).toContain("[cwd: a/b]");
    expect(textOf(await run(h, "pwd"))).toContain(path.join(h.workspace, "a", "b"));
    // relative writes resolve from there: the deny on a/b/x.txt sees `> x.txt`
    const denied = shell([...ALL, { effect: "deny", path: "a/b/x.txt" }]);
    mkdirSync(path.join(denied.workspace, "a", "b"), { recursive: true });
    await run(denied, "cd a/b");
    expect((await run(denied, "echo 1 > x.txt")).error?.code).toBe("permission_denied");
    // leaving the workspace puts the next command back at its start
    const left = await run(h, "cd /");
    expect(textOf(left)).toContain("the command left the workspace");
    expect(textOf(await run(h, "pwd"))).toContain(h.workspace);
  });

  it("a timeout kills the whole process group, background jobs included", async () => {
    // `&` is outside the modelled subset: it asks, approved here
    const h = shell(ALL, { ask: () => true, config: { "tools.timeoutMs": 1500 } });
    const marker = `${Math.floor(Math.random() * 1e6) + 1000}.5`;
    const r = await run(h, `sleep ${marker} & sleep ${marker} & sleep ${marker}`);
    expect(r.error?.code).toBe("timeout");
    await new Promise((res) => setTimeout(res, 300));
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  });

  it("background jobs end with the command", async () => {
    const h = shell(ALL, { ask: () => true });
    const marker = `${Math.floor(Math.random() * 1e6) + 1000}.25`;
    const r = await run(h, `sleep ${marker} & echo started`);
    expect(textOf(r)).toContain("started");
    await new Promise((res) => setTimeout(res, 300));
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  });

  it("streams a large output to the spill file with a preview, and cuts long lines", async () => {
    const h = shell(ALL, {
      ask: () => true,
      config: { "results.inlineMaxBytes": 4096, "results.previewBytes": 1024 },
    });
    const r = await run(h, "seq 1 100000");
    expect(r.truncated).toBe(true);
    expect(r.spillPath).toBeDefined();
    expect(readFileSync(r.spillPath!, "utf8").split("\n")[99_999]).toBe("100000");
    expect(textOf(r)).toContain("[exit code 0]");
    const long = await run(h, "printf '%3000s' x | tr ' ' a; echo");
    expect(textOf(long)).toMatch(/line cut/);
    expect(long.truncated).toBe(true);
  });
});

describe("bash: a command longer than Linux passes in one argument", () => {
  it("is refused as invalid arguments, before any ask; one just under the limit runs", async () => {
    const asked: AskRequest[] = [];
    const h = shell([], {
      ask: (r) => {
        asked.push(r);
        return true;
      },
    });
    const long = await run(h, `echo ${"a".repeat(200 * 1024)} | wc -c`);
    expect(long.error?.code).toBe("invalid_arguments");
    expect(long.error?.message).toContain("the command is 204,813 bytes");
    expect(long.error?.message).toContain(
      "write the script to a file with the write tool and run `bash FILE`",
    );
    expect(asked).toEqual([]);
    // 130,000 bytes of command fit with bash's own prelude; before the check, 200 KiB failed at
    // spawn with E2BIG
    const under = await run(h, `echo ${"a".repeat(130_000 - 12)} | wc -c`);
    expect(under.isError).toBe(false);
    expect(textOf(under)).toMatch(/^129989\n/);
  });
});
