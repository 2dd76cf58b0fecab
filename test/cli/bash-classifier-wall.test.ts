import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sandboxSupport } from "../../src/tools/sandbox/bwrap.js";
import { runCli } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

// Issue 41's attack classes against the classifier alone: `toolplane call bash` with no rule, no
// --yes, and the sandbox off (as where bubblewrap is missing). Each test plants what the line
// would reach (a secret outside the workspace, an ask-first file inside it, a program on PATH or
// in the repository's configuration) and requires the call to stop before anything runs: the
// secret is not printed, the program does not run. The two `/tmp` holes lived only under the
// sandbox (the check skipped /tmp paths there), so those run with it on too where bubblewrap is,
// and so does one line of each other class (the check must ask there as well).

const SANDBOX = sandboxSupport().available;
const DASH = realpathSync("/bin/sh").endsWith("dash");
/** ripgrep as the package ships it (the system may have none): put on PATH for the rg lines. */
const RG_DIR = path.dirname(
  createRequire(import.meta.url)("@vscode/ripgrep").rgPath.replace("app.asar", "app.asar.unpacked"),
);

interface Planted {
  root: string;
  repo: string;
  env: NodeJS.ProcessEnv;
  /** A file outside the workspace, holding SECRET. */
  outside: string;
  /** Made by a planted program when it runs. */
  marker: string;
  bin: string;
}

const SECRET = "SECRET-41-c1a55";

/** A workspace with `.env` (an ask-first file), a secret beside it outside, and a folder on PATH for programs. */
function plant(files: Record<string, string> = {}): Planted {
  const { root, repo, env } = tempProject({ ".env": `TOKEN=${SECRET}\n`, "file.txt": "alpha\n", ...files });
  const outside = path.join(root, "outside", "secret.txt");
  mkdirSync(path.dirname(outside), { recursive: true });
  writeFileSync(outside, `${SECRET}\n`);
  const bin = path.join(root, "bin");
  mkdirSync(bin);
  const marker = path.join(root, "ran");
  return { root, repo, outside, marker, bin, env: { ...env, PATH: `${bin}:${RG_DIR}:${env.PATH}` } };
}

/** A program on PATH (outside the workspace, as a system one would be) that leaves the marker. */
function program(p: Planted, name: string): void {
  writeFileSync(path.join(p.bin, name), `#!/bin/sh\ntouch ${p.marker}\ncat\n`, { mode: 0o755 });
}

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

function commitAll(repo: string): void {
  git(repo, "init", "-q");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "one");
}

function call(
  p: Planted,
  command: string,
  opts: { sandbox?: string; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
) {
  return runCli(
    [
      "call",
      "bash",
      "--cwd",
      opts.cwd ?? p.repo,
      "--json",
      "--args",
      JSON.stringify({ command }),
      "--set",
      `tools.sandbox=${opts.sandbox ?? "off"}`,
    ],
    { env: { ...p.env, ...opts.env }, cwd: opts.cwd ?? p.repo, timeoutMs: opts.timeoutMs ?? 60_000 },
  );
}

/** The call stopped (an ask with nobody to approve it): nothing printed the secret, nothing ran. */
function expectStopped(p: Planted, r: ReturnType<typeof call>, secret = SECRET): void {
  expect(r.stdout).not.toContain(secret);
  expect(existsSync(p.marker), "the planted program ran").toBe(false);
  expect(r.code, r.stdout + r.stderr).toBe(1);
  expect(JSON.parse(r.stdout).error?.code).toBe("permission_denied");
}

const MODES = SANDBOX ? ["off", "workspace-write"] : ["off"];

describe("paths: one model of bash's directory, `..` and symlinks", () => {
  // the sandbox's /tmp is private, so the check skipped /tmp paths: before `..` was resolved
  it.each(MODES)("`cat /tmp/../PATH` is the file outside (sandbox %s)", (mode) => {
    const p = plant();
    const release = /^PRETTY_NAME=.*$/m.exec(readFileSync("/etc/os-release", "utf8"))![0];
    expectStopped(p, call(p, "cat /tmp/../etc/os-release", { sandbox: mode }), release);
  });

  it.each(MODES)("a workspace under /tmp is checked like any other (sandbox %s)", (mode) => {
    const p = plant();
    expectStopped(p, call(p, `cat ${p.repo}/.env`, { sandbox: mode }));
  });

  it("/proc/self/cwd is the shell's directory, not toolplane's", () => {
    const p = plant();
    expectStopped(p, call(p, "cd .. && cat /proc/self/cwd/outside/secret.txt", { cwd: p.repo }));
  });

  it.each(MODES)(
    "`cd` through a symlink is logical, as bash does it (`cd link/../..`; sandbox %s)",
    (mode) => {
      const p = plant();
      mkdirSync(path.join(p.repo, "a", "b", "c", "d", "e", "f", "g"), { recursive: true });
      symlinkSync("a/b/c/d/e/f/g", path.join(p.repo, "l"));
      // bash: repo/l and five `..` is "/" (the workspace lies three folders down); the kernel from
      // the link's target: repo/a/b, inside the workspace, where the check used to look
      const release = /^PRETTY_NAME=.*$/m.exec(readFileSync("/etc/os-release", "utf8"))![0];
      expectStopped(p, call(p, "cd l/../../../../.. && cat etc/os-release", { sandbox: mode }), release);
      // the same through the planted secret, where bash's `..` lands beside the workspace
      if (mode === "off") expectStopped(p, call(p, "cd l/../.. && cat outside/secret.txt"));
    },
  );
});

describe("globs and braces: bash's own expansion", () => {
  it.each(MODES)("a letter range `.en{v..v}` is .env (sandbox %s)", (mode) => {
    const p = plant();
    expectStopped(p, call(p, "cat .en{v..v}", { sandbox: mode }));
  });

  it("`[!x]` is a negated bracket: `.en[!x]` is .env", () => {
    const p = plant();
    expectStopped(p, call(p, "cat .en[!x]"));
  });

  it("a crafted file name does not make the check backtrack for minutes", { timeout: 120_000 }, () => {
    const p = plant({ [`${"a".repeat(60)}`]: "x\n" });
    // a backtracking matcher took 7.8 s for six `*a` here, 195 s for eight (2026-12-05, loaded)
    const r = call(p, `ls ${"*a".repeat(9)}*b`, { timeoutMs: 50_000 });
    expect(r.code, "the check did not end").not.toBeNull();
  });
});

describe("another shell, another locale", () => {
  // the attack needs a shell that reads braces as text: Debian's sh is dash
  it.skipIf(!DASH).each(MODES)(
    "`sh -c` is read as dash reads it: no brace expansion (sandbox %s)",
    (mode) => {
      const p = plant();
      symlinkSync(p.outside, path.join(p.repo, "{a,b}"));
      expectStopped(p, call(p, "sh -c 'cat {a,b}'", { sandbox: mode }));
    },
  );

  it("`$'\\u00e9'` is not decoded as UTF-8 when the shell's locale is C", () => {
    const p = plant();
    // bash in the C locale writes the escape out as text
    symlinkSync(p.outside, path.join(p.repo, "\\u00E9"));
    expectStopped(p, call(p, "cat $'\\u00e9'", { env: { LANG: "C", LC_ALL: "" } }));
  });
});

describe("options: each program's own parser", () => {
  it("`rg -iz` is `rg -i -z`: it runs a decompressor", () => {
    const p = plant();
    program(p, "gzip");
    writeFileSync(path.join(p.repo, "a.gz"), "x");
    expectStopped(p, call(p, "rg -iz alpha"));
  });

  it.each(MODES)("`rg -g .env` searches the ask-first file (sandbox %s)", (mode) => {
    const p = plant();
    expectStopped(p, call(p, "rg -g .env TOKEN", { sandbox: mode }));
  });

  it("`diff -r` follows a symlink out of the workspace", () => {
    const p = plant({ "b/s": "other\n" });
    mkdirSync(path.join(p.repo, "a"));
    symlinkSync(p.outside, path.join(p.repo, "a", "s"));
    expectStopped(p, call(p, "diff -r a b"));
  });

  it("`ls -RL` follows a symlink out of the workspace", () => {
    const p = plant();
    mkdirSync(path.join(p.repo, "src"));
    symlinkSync(path.dirname(p.outside), path.join(p.repo, "src", "link"));
    expectStopped(p, call(p, "ls -RL src"), "secret.txt");
  });

  it("`find -L` follows a symlink out of the workspace", () => {
    const p = plant();
    mkdirSync(path.join(p.repo, "src"));
    symlinkSync(path.dirname(p.outside), path.join(p.repo, "src", "link"));
    expectStopped(p, call(p, "find -L src"), "secret.txt");
  });

  it.each(MODES)(
    "`grep -R` and `rg -L` read the ask-first file through a symlink to it (sandbox %s)",
    (mode) => {
      const p = plant();
      mkdirSync(path.join(p.repo, "src"));
      symlinkSync("../.env", path.join(p.repo, "src", "notes"));
      for (const command of ["grep -R TOKEN src", "rg -L TOKEN src"])
        expectStopped(p, call(p, command, { sandbox: mode }));
    },
  );
});
describe("git: what the repositories make git read, write and run", () => {
  it("`git grep --untracked` reads the untracked .env", () => {
    const p = plant();
    commitAll(p.repo);
    writeFileSync(path.join(p.repo, ".env"), `TOKEN=${SECRET}\n`);
    git(p.repo, "rm", "-q", "--cached", ".env");
    expectStopped(p, call(p, "git grep --untracked TOKEN"));
  });

  it("`git blame --contents FILE` prints FILE", () => {
    const p = plant();
    commitAll(p.repo);
    expectStopped(p, call(p, `git blame --contents ${p.outside} file.txt`));
  });

  it("`git config --file FILE` reads FILE", () => {
    const p = plant();
    commitAll(p.repo);
    writeFileSync(p.outside, `[aws]\n\tkey = ${SECRET}\n`);
    expectStopped(p, call(p, `git config --file ${p.outside} --list`));
  });

  it("`git config NAME get` writes (it is not `git config get`)", () => {
    const p = plant();
    commitAll(p.repo);
    program(p, "get");
    const config = readFileSync(path.join(p.repo, ".git", "config"), "utf8");
    expectStopped(p, call(p, "git config core.fsmonitor get && git status --short"));
    expect(readFileSync(path.join(p.repo, ".git", "config"), "utf8")).toBe(config);
  });

  it("`git show :.env` prints the index's .env", () => {
    const p = plant();
    commitAll(p.repo);
    expectStopped(p, call(p, "git show :.env"));
  });

  it.each(MODES)("a post-index-change hook that `git status` runs (sandbox %s)", (mode) => {
    const p = plant();
    commitAll(p.repo);
    const hook = path.join(p.repo, ".git", "hooks", "post-index-change");
    writeFileSync(hook, `#!/bin/sh\ntouch ${p.marker}\n`);
    chmodSync(hook, 0o755);
    spawnSync("touch", ["-d", "2001-01-01", path.join(p.repo, "file.txt")]);
    expectStopped(p, call(p, "git status --short", { sandbox: mode }));
  });

  it.each([
    ["on one line", "config", "[core] fsmonitor = touch MARKER\n"],
    ["in config.worktree", "config.worktree", "[core]\n\tfsmonitor = touch MARKER\n"],
  ])("core.fsmonitor written %s", (_, file, text) => {
    const p = plant();
    commitAll(p.repo);
    if (file === "config.worktree") git(p.repo, "config", "extensions.worktreeConfig", "true");
    writeFileSync(path.join(p.repo, ".git", file), text.replace("MARKER", p.marker), { flag: "a" });
    expectStopped(p, call(p, "git status --short"));
  });

  it("a bare repository's textconv driver", () => {
    const p = plant();
    const work = path.join(p.root, "work");
    mkdirSync(work);
    writeFileSync(path.join(work, "a.txt"), "one\n");
    commitAll(work);
    writeFileSync(path.join(work, "a.txt"), "two\n");
    git(work, "commit", "-qam", "two");
    const bare = path.join(p.repo, "evil.git");
    git(p.root, "clone", "-q", "--bare", work, bare);
    program(p, "show-text");
    writeFileSync(path.join(bare, "config"), '[diff "x"]\n\ttextconv = show-text\n', { flag: "a" });
    writeFileSync(path.join(bare, "info", "attributes"), "* diff=x\n");
    expectStopped(p, call(p, "cd evil.git && git log -p"));
  });

  it("an embedded repository that the top-level `git status` enters", () => {
    const p = plant();
    const inner = path.join(p.repo, "inner");
    mkdirSync(inner);
    writeFileSync(path.join(inner, "x"), "x\n");
    commitAll(inner);
    commitAll(p.repo);
    writeFileSync(path.join(inner, ".git", "config"), `[core]\n\tfsmonitor = touch ${p.marker}\n`, {
      flag: "a",
    });
    expectStopped(p, call(p, "git status --short"));
  });
});

describe("the read-only set stays useful", () => {
  it("ls, cat, head, wc, rg and git status|log|diff|show run unasked in a plain repository with a .env beside", () => {
    const p = plant({ ".gitignore": ".env\n" });
    commitAll(p.repo);
    writeFileSync(path.join(p.repo, "file.txt"), "alpha\nbeta\n");
    const line =
      "ls && cat file.txt && head -n 1 file.txt && wc -l file.txt && rg alpha && git status --short && git log --oneline && git diff && git show --stat";
    const r = call(p, line);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain("+beta");
    expect(r.stdout).not.toContain(SECRET);
  });
});
