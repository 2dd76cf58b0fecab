import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bashParser } from "../../src/tools/bash/parser.js";
import { sandboxSupport } from "../../src/tools/sandbox/bwrap.js";
import { runCli } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

// without bubblewrap every command asks (README): these run commands a rule or the read-only set allows
const NO_SANDBOX = !sandboxSupport().available;
const ENGINES = (await bashParser("native").then(
  () => ["native", "wasm"],
  () => ["wasm"],
)) as Array<"native" | "wasm">;

// The narrow policy, through the path a user takes: `toolplane call bash` without --yes.
const NARROW = `permissions.rules=${JSON.stringify([
  { effect: "allow", action: "command", pattern: "cat *" },
  { effect: "allow", action: "command", pattern: "ls*" },
  { effect: "allow", action: "command", pattern: "git status*" },
  { effect: "allow", action: "command", pattern: "echo *" },
  { effect: "deny", action: "command", pattern: "rm *" },
])}`;

const ATTEMPTS = [
  "false && rm(){ :; }; rm -f victim.txt",
  "command rm -f victim.txt",
  "jobs -x rm victim.txt",
  'let "x=$(touch pwned)"',
  "x='$(touch pwned)'; echo ${x@P}",
  "PS4='$(touch pwned)'; set -x; echo",
  "cat victim.txt 3<victim.txt >/dev/fd/3",
  "echo `echo pwned > pwned`",
  "$'\\u0072m' -f victim.txt",
  "declare -n p=PATH; p=.; ls",
  "PAGER='touch pwned' git status",
  "ln -s victim.txt l; echo x > l",
  "sed 's/a/b/w pwned' victim.txt",
  "echo x > /dev/tcp/127.0.0.1/9",
  "cat /etc/hostname",
];

describe("toolplane call bash under a narrow policy: the attack classes change nothing", () => {
  it.each(ATTEMPTS)("%s", (command) => {
    const { repo, env } = tempProject({ "victim.txt": "keep\n" });
    const before = readdirSync(repo).sort();
    const r = runCli(
      ["call", "bash", "--cwd", repo, "--json", "--args", JSON.stringify({ command }), "--set", NARROW],
      {
        env,
      },
    );
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { isError: boolean; error?: { code: string; message: string } };
    expect(out.error?.code).toBe("permission_denied");
    expect(readdirSync(repo).sort()).toEqual(before);
    expect(readFileSync(path.join(repo, "victim.txt"), "utf8")).toBe("keep\n");
  });

  it.skipIf(NO_SANDBOX)(
    "a repository whose .git/config names a program (core.fsmonitor) takes git out of the read-only set",
    () => {
      const { repo, env } = tempProject();
      spawnSync("git", ["init", "-q", repo]);
      const plain = runCli(["call", "bash", "--cwd", repo, "--args", '{"command":"git status --short"}'], {
        env,
      });
      expect(plain.code).toBe(0);
      writeFileSync(path.join(repo, ".git", "config"), "[core]\n\tfsmonitor = touch pwned\n", { flag: "a" });
      const planted = runCli(["call", "bash", "--cwd", repo, "--args", '{"command":"git status --short"}'], {
        env,
      });
      expect(planted.code).toBe(1);
      expect(existsSync(path.join(repo, "pwned"))).toBe(false);
    },
  );

  it.skipIf(NO_SANDBOX).each([["cd vendor/lib && git status --short"], ["git -C vendor/lib status --short"]])(
    "a repository nested in the workspace is checked too: %s",
    (command) => {
      const { repo, env } = tempProject();
      spawnSync("git", ["init", "-q", repo]);
      const nested = path.join(repo, "vendor", "lib");
      spawnSync("git", ["init", "-q", nested]);
      const call = () =>
        runCli(["call", "bash", "--cwd", repo, "--args", JSON.stringify({ command })], { env });
      expect(call().code).toBe(0);
      writeFileSync(path.join(nested, ".git", "config"), "[core]\n\tfsmonitor = touch pwned\n", {
        flag: "a",
      });
      expect(call().code).toBe(1);
      expect(existsSync(path.join(nested, "pwned"))).toBe(false);
    },
  );

  it("the ask names the construct it could not model", () => {
    const { repo, env } = tempProject();
    const r = runCli(
      [
        "call",
        "bash",
        "--cwd",
        repo,
        "--args",
        JSON.stringify({ command: "f(){ ls; }; f" }),
        "--set",
        NARROW,
      ],
      { env },
    );
    expect(r.stdout).toContain("function definition");
  });

  // bash runs a program named `é=1` here (its names are ASCII); the wasm parser's libc read an
  // assignment, which needed no permission, so the planted program ran with no ask
  it.each(ENGINES)("a name outside ASCII is a command, not an assignment (%s parser): it asks", (engine) => {
    const { repo, env } = tempProject();
    const bin = path.join(repo, "bin");
    mkdirSync(bin);
    writeFileSync(path.join(bin, "é=1"), `#!/bin/sh\ntouch ${path.join(repo, "pwned")}\n`, { mode: 0o755 });
    for (const command of ["é=1", "ls; é=1"]) {
      const r = runCli(["call", "bash", "--cwd", repo, "--json", "--args", JSON.stringify({ command })], {
        env: { ...env, PATH: `${bin}:${env.PATH ?? process.env.PATH}`, TOOLPLANE_BASH_PARSER: engine },
      });
      expect(r.code, `${engine}: ${command}`).toBe(1);
      expect(JSON.parse(r.stdout).error?.code).toBe("permission_denied");
    }
    expect(existsSync(path.join(repo, "pwned"))).toBe(false);
  });

  // bash runs a program named `-9` here, its output to `a`; the grammar read `-9` as the
  // descriptor of a bare redirection, so with writes allowed the program ran with no ask
  it.each(ENGINES)("a descriptor that is not digits is a command (%s parser): `-9>a` asks", (engine) => {
    const { repo, env } = tempProject();
    const bin = path.join(repo, "bin");
    mkdirSync(bin);
    writeFileSync(path.join(bin, "-9"), `#!/bin/sh\ntouch ${path.join(repo, "pwned")}\n`, { mode: 0o755 });
    const writes = `permissions.rules=${JSON.stringify([{ effect: "allow", action: "write" }])}`;
    for (const command of ["-9>a", "echo hi; -9>>a"]) {
      const r = runCli(
        [
          "call",
          "bash",
          "--cwd",
          repo,
          "--json",
          "--args",
          JSON.stringify({ command }),
          "--set",
          writes,
          "--set",
          "tools.sandbox=off",
        ],
        { env: { ...env, PATH: `${bin}:${env.PATH ?? process.env.PATH}`, TOOLPLANE_BASH_PARSER: engine } },
      );
      expect(r.code, `${engine}: ${command}`).toBe(1);
      expect(JSON.parse(r.stdout).error?.code).toBe("permission_denied");
    }
    expect(existsSync(path.join(repo, "pwned"))).toBe(false);
  });

  // bash runs a program named ` ls` here; the grammar skipped the escaped blank and read `ls`,
  // which the read-only set runs with no rule at all
  it.each(ENGINES)(
    "an escaped blank that starts a word is part of it (%s parser): `\\ ls` asks",
    (engine) => {
      const { repo, env } = tempProject();
      const bin = path.join(repo, "bin");
      mkdirSync(bin);
      writeFileSync(path.join(bin, " ls"), `#!/bin/sh\ntouch ${path.join(repo, "pwned")}\n`, { mode: 0o755 });
      for (const command of ["\\ ls", "echo hi && \\ ls"]) {
        const r = runCli(
          [
            "call",
            "bash",
            "--cwd",
            repo,
            "--json",
            "--args",
            JSON.stringify({ command }),
            "--set",
            "tools.sandbox=off",
          ],
          { env: { ...env, PATH: `${bin}:${env.PATH ?? process.env.PATH}`, TOOLPLANE_BASH_PARSER: engine } },
        );
        expect(r.code, `${engine}: ${command}`).toBe(1);
        expect(JSON.parse(r.stdout).error?.code).toBe("permission_denied");
      }
      expect(existsSync(path.join(repo, "pwned"))).toBe(false);
    },
  );

  // bash sets PATH to the number of the descriptor `{PATH}>` opens (10 and up), and `ls` then runs
  // from a folder of that name in the workspace; the grammar read an argument and a redirection,
  // and the read-only set ran both commands with no rule at all
  it.each(ENGINES)("a named descriptor sets its variable (%s parser): `{PATH}>` asks", (engine) => {
    const { repo, env } = tempProject();
    for (let fd = 10; fd < 20; fd++) {
      mkdirSync(path.join(repo, String(fd)));
      writeFileSync(path.join(repo, String(fd), "ls"), `#!/bin/sh\ntouch ${path.join(repo, "pwned")}\n`, {
        mode: 0o755,
      });
    }
    for (const command of ["echo hi {PATH}>/dev/null; ls", "echo {PATH}>/dev/null && ls"]) {
      const r = runCli(
        [
          "call",
          "bash",
          "--cwd",
          repo,
          "--json",
          "--args",
          JSON.stringify({ command }),
          "--set",
          "tools.sandbox=off",
        ],
        { env: { ...env, TOOLPLANE_BASH_PARSER: engine } },
      );
      expect(r.code, `${engine}: ${command}`).toBe(1);
      expect(JSON.parse(r.stdout).error?.code).toBe("permission_denied");
    }
    expect(existsSync(path.join(repo, "pwned"))).toBe(false);
  });

  it.skipIf(NO_SANDBOX)(
    "the default read-only set runs with no rule; a rule `echo *` also allows a bare `echo`",
    () => {
      const { repo, env } = tempProject();
      writeFileSync(path.join(repo, "a.txt"), "one\ntwo\n");
      const ls = runCli(
        [
          "call",
          "bash",
          "--cwd",
          repo,
          "--args",
          JSON.stringify({ command: "sed -n 2p a.txt && wc -l a.txt" }),
        ],
        { env },
      );
      expect(ls.code).toBe(0);
      expect(ls.stdout).toMatch(/two\n2 a\.txt/);
      const bare = runCli(["call", "bash", "--cwd", repo, "--args", '{"command":"echo"}', "--set", NARROW], {
        env,
      });
      expect(bare.code).toBe(0);
    },
  );
});
