import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxSupport } from "../../src/tools/sandbox/bwrap.js";
import { runCli } from "../helpers/cli.js";
import { processesWith } from "../helpers/processes.js";
import { tempProject } from "../helpers/tmp.js";

// Everything allowed: the setting a user picks so the agent works without prompts. What holds
// then is the protected-path rule (an ask before the run) and the sandbox (a failure inside it).
const ALL = `permissions.rules=${JSON.stringify([
  { effect: "allow", action: "command" },
  { effect: "allow", action: "write" },
])}`;
const support = sandboxSupport();
const missing = support.available ? "" : ` [skipped: ${support.reason}]`;

function bash(repo: string, env: NodeJS.ProcessEnv, command: string, ...more: string[]) {
  return runCli(
    ["call", "bash", "--cwd", repo, "--set", ALL, "--args", JSON.stringify({ command }), ...more],
    { env },
  );
}

/** Every file below a folder with its contents: what "nothing changed" is checked against. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return out;
}

describe(`the sandbox holds what a command could use to escape later${missing}`, () => {
  const escapes: Array<[string, string]> = [
    ["a git hook", "echo 'touch /tmp/pwned-hook' >> .git/hooks/pre-commit"],
    ["git's config (core.fsmonitor)", "git config core.fsmonitor 'touch /tmp/pwned-fsmonitor'"],
    ["the project's toolplane config", "mkdir -p .toolplane && echo '{}' > .toolplane/config.json"],
    ["a tool module named by the config", "echo 'throw 1' >> tools/mod.mjs"],
  ];

  it.skipIf(!support.available).each(escapes)(
    "%s: asks before the run, and fails inside the sandbox when approved",
    (_, command) => {
      const { repo, env } = tempProject({
        ".git/hooks/pre-commit": "#!/bin/sh\n",
        ".git/config": "[core]\n",
        "tools/mod.mjs": "export const tools = [];\n",
      });
      const modules = 'tools.modules=["tools/mod.mjs"]';
      spawnSync("git", ["init", "-q", repo]);
      const before = snapshot(repo);
      const asked = bash(repo, env, command, "--set", modules);
      expect(asked.code).toBe(1);
      expect(asked.stdout).toMatch(/is protected|needs approval/);
      const approved = bash(repo, env, command, "--set", modules, "--yes");
      expect(approved.stdout).toMatch(/Read-only file system|Device or resource busy|could not write/);
      // and the result says what the sandbox keeps read-only, and how to allow it
      expect(approved.stdout).toMatch(/\[the sandbox keeps [^\]]*\.git[^\]]*read-only/);
      expect(snapshot(repo)).toEqual(before);
      expect(existsSync(path.join(repo, ".toolplane"))).toBe(false);
      for (const f of ["pwned", "pwned-hook", "pwned-fsmonitor"])
        expect(existsSync(path.join("/tmp", f))).toBe(false);
    },
  );

  it.skipIf(!support.available)(
    "a program the classifier does not model runs, and its write into .git fails inside the sandbox",
    () => {
      const { repo, env } = tempProject();
      spawnSync("git", ["init", "-q", repo]);
      const before = snapshot(repo);
      const r = bash(repo, env, `node -e "require('fs').appendFileSync('.git/config', 'x')"`);
      expect(r.stdout).toMatch(/EROFS|EBUSY|read-only/i);
      expect(snapshot(repo)).toEqual(before);
    },
  );

  it.skipIf(!support.available)("a rule that names .git allows git commit; the hooks stay read-only", () => {
    const { repo, env } = tempProject();
    spawnSync("git", ["init", "-q", repo]);
    const rules = `permissions.rules=${JSON.stringify([
      { effect: "allow", action: "command" },
      { effect: "allow", action: "write" },
      { effect: "allow", action: "write", path: ".git/**" },
    ])}`;
    const call = (command: string) =>
      runCli(["call", "bash", "--cwd", repo, "--set", rules, "--args", JSON.stringify({ command })], {
        env: { ...env, GIT_AUTHOR_NAME: "a", GIT_COMMITTER_NAME: "a", EMAIL: "a@b" },
      });
    expect(call("git -c user.name=a -c user.email=a@b commit --allow-empty -qm x").code).toBe(1); // -c asks
    const commit = runCli(
      [
        "call",
        "bash",
        "--cwd",
        repo,
        "--set",
        rules,
        "--set",
        'tools.shellEnv=["GIT_AUTHOR_*","GIT_COMMITTER_*","EMAIL"]',
        "--args",
        JSON.stringify({ command: "git commit --allow-empty -qm x" }),
      ],
      {
        env: {
          ...env,
          GIT_AUTHOR_NAME: "a",
          GIT_AUTHOR_EMAIL: "a@b",
          GIT_COMMITTER_NAME: "a",
          GIT_COMMITTER_EMAIL: "a@b",
        },
      },
    );
    expect(commit.stdout).toContain("[exit code 0]");
    expect(spawnSync("git", ["-C", repo, "log", "--oneline"], { encoding: "utf8" }).stdout).toMatch(/x/);
    const hook = call("echo x > .git/hooks/pre-commit");
    expect(hook.stdout).toContain("Read-only file system");
    expect(existsSync(path.join(repo, ".git", "hooks", "pre-commit"))).toBe(false);
  });

  it.skipIf(!support.available)(
    "the environment is built: toolplane's token and the harness's API keys never reach a command",
    () => {
      const { repo, env } = tempProject();
      const secrets = {
        ...env,
        TOOLPLANE_SERVE_TOKEN: "tok-sekrit-1",
        OPENAI_API_KEY: "sk-sekrit-2",
        AWS_SECRET_ACCESS_KEY: "sekrit-3",
      };
      for (const sandbox of ["workspace-write", "off"]) {
        const r = bash(
          repo,
          secrets,
          "env; declare -p; export -p; echo $OPENAI_API_KEY",
          "--yes",
          "--set",
          `tools.sandbox=${sandbox}`,
        );
        expect(r.stdout).toContain("[exit code 0]");
        expect(r.stdout).toContain("PATH=");
        expect(r.stdout).not.toMatch(/sekrit/);
        // the process's own environment file is outside the workspace: a read the boundary denies
        const environ = bash(
          repo,
          secrets,
          "cat /proc/self/environ",
          "--yes",
          "--set",
          `tools.sandbox=${sandbox}`,
        );
        expect(environ.code).toBe(1);
        expect(environ.stdout).not.toMatch(/sekrit/);
      }
      // a name the user passes through on purpose does reach it
      const passed = bash(
        repo,
        { ...secrets, MY_TOOL_HOME: "/opt/x" },
        "echo $MY_TOOL_HOME",
        "--yes",
        "--set",
        'tools.shellEnv=["MY_TOOL_*"]',
      );
      expect(passed.stdout).toContain("/opt/x");
    },
  );

  describe("unix sockets outside the workspace are out of reach, with the network on or off", () => {
    const sockets = ["/run/tp-escape-test.sock", "/var/tmp/tp-escape-test.sock"];
    // the servers run in processes of their own: the CLI calls below block this one
    const servers: ChildProcess[] = [];
    beforeAll(async () => {
      for (const s of sockets) {
        rmSync(s, { force: true });
        const code = `require("net").createServer((c) => c.end("hello from outside\\n")).listen(${JSON.stringify(s)})`;
        servers.push(spawn(process.execPath, ["-e", code], { stdio: "ignore" }));
      }
      const deadline = Date.now() + 10_000;
      while (!sockets.every((s) => existsSync(s)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
    });
    afterAll(() => {
      for (const s of servers) s.kill();
      for (const s of sockets) rmSync(s, { force: true });
    });

    it.skipIf(!support.available)(
      "a socket in /run or /var/tmp is not there inside, network or not; one named in tools.sandboxReadable is",
      () => {
        const { repo, env } = tempProject();
        for (const s of sockets) {
          const probe = `node -e "require('net').connect('${s}').on('data', (d) => { process.stdout.write(String(d)); process.exit(0) }).on('error', (e) => { console.log('refused', e.code); process.exit(7) })"`;
          const closed = bash(repo, env, probe, "--yes");
          expect(closed.stdout).toMatch(/refused E[A-Z]+/);
          const online = bash(repo, env, probe, "--yes", "--set", "tools.sandboxNetwork=true");
          expect(online.stdout).toMatch(/refused E[A-Z]+/);
          const named = bash(
            repo,
            env,
            probe,
            "--yes",
            "--set",
            `tools.sandboxReadable=${JSON.stringify([s])}`,
          );
          expect(named.stdout).toContain("hello from outside");
        }
      },
    );
  });

  it("with the sandbox off, a setsid child does not outlive the call", () => {
    const { repo, env } = tempProject();
    const marker = `${Math.floor(Math.random() * 1e6) + 1000}.75`;
    const r = bash(repo, env, `setsid -f sleep ${marker}; echo started`, "--set", "tools.sandbox=off");
    expect(r.stdout).toContain("started");
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  });
});
