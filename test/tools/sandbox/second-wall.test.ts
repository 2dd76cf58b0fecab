// The sandbox as the second wall behind the permission check: a command that needed no approval
// runs read-only and sees only what the read tool may read, so a classifier that is wrong about a
// line gives it nothing to write and no secret to read; an approved one writes the workspace and
// finds its toolchain, and still no credential store. Planted secrets, real bubblewrap.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODING_ACTION_DEFAULTS } from "../../../src/assemble/policy.js";
import { CONFIG_KEYS } from "../../../src/config/index.js";
import { defineTool } from "../../../src/declare/index.js";
import { HIDDEN_MAX } from "../../../src/tools/bash/sandbox-plan.js";
import { bashOutput, bashParameters } from "../../../src/tools/bash/schema.gen.js";
import { BASH_DESCRIPTION, bashTool, renderBash, runBash } from "../../../src/tools/bash/tool.js";
import { sandboxSupport } from "../../../src/tools/sandbox/bwrap.js";
import { SYSTEM_FOLDERS } from "../../../src/tools/sandbox/mounts.js";
import { testHost, textOf } from "../../helpers/host.js";
import { nodeReads, plantSecrets, SECRET } from "../../helpers/secrets.js";
import { tempDir, writeTree } from "../../helpers/tmp.js";

const support = sandboxSupport();
const missing = support.available ? "" : ` (SKIPPED: ${support.reason}; .ci/run installs it)`;

/**
 * bash with a first wall that lets everything through as read-only (a classifier that missed):
 * the real runner behind it, so what holds is the sandbox the host's verdict picks.
 */
const missedByClassifier = () =>
  defineTool({
    name: "bash",
    description: BASH_DESCRIPTION,
    parameters: bashParameters,
    output: { schema: bashOutput, render: renderBash },
    execute: runBash,
    permission: {
      action: "command",
      needs: (a: { command: string }) => [
        { action: "command", patterns: [a.command], knownSafe: "a classifier that missed" },
      ],
    },
  });

// node runs inside the sandbox only from a folder it shows: a system folder here, else named
const nodeHome = path.dirname(path.dirname(process.execPath));
const nodeShown = SYSTEM_FOLDERS.some((d) => process.execPath.startsWith(`${d}/`)) ? [] : [nodeHome];

describe(`the second wall: what needs no approval runs read-only, and no sandbox shows a secret${missing}`, () => {
  let planted: ReturnType<typeof plantSecrets>;
  let savedHome: string | undefined;
  let server: net.Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    // the sandbox shows the home folder toolplane runs with: a fake one, with secrets in it
    planted = plantSecrets();
    savedHome = process.env.HOME;
    process.env.HOME = planted.home;
    server = net.createServer((s) => {
      connections++;
      s.on("error", () => {});
      s.end("hello\n");
    });
    await new Promise<void>((res) => server.listen(0, "127.0.0.1", res));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    if (savedHome === undefined) delete process.env.HOME;
    else process.env.HOME = savedHome;
    await new Promise<void>((res) => server.close(() => res()));
  });

  /** A workspace with ask-first files in every shape: nested, symlinked, hard-linked, by pattern. */
  function workspace() {
    const ws = tempDir("tp-wall-");
    writeTree(ws, {
      "a.txt": "original\n",
      ".env": SECRET.dotenv,
      "sub/deep/.env": SECRET.dotenv,
      "certs/server.pem": SECRET.dotenv,
    });
    symlinkSync(".env", path.join(ws, "link-to-env"));
    // an ask-first file in a folder every sandbox shows (a toolchain's), reached from the workspace
    writeTree(planted.home, { ".nvm/stash.env": SECRET.dotenv });
    symlinkSync(path.join(planted.home, ".nvm/stash.env"), path.join(ws, "tool.env"));
    linkSync(path.join(ws, ".env"), path.join(ws, "hard-copy.txt"));
    // settled folders (changed an hour ago): a scan trusts their mtime, as on a real workspace
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const d of ["sub/deep", "sub", "certs", "."]) utimesSync(path.join(ws, d), hourAgo, hourAgo);
    return ws;
  }

  it.skipIf(!support.available)(
    "a line the classifier let through as read-only writes nothing, reaches no network and reads no secret",
    async () => {
      const ws = workspace();
      const h = testHost([missedByClassifier()], {
        workspace: ws,
        policy: { actionDefaults: CODING_ACTION_DEFAULTS },
        config: { "tools.sandbox": "workspace-write", "tools.sandboxNetwork": true },
      });
      const inner = `/tmp/tp-wall-inner-${process.pid}`;
      const p = planted.paths;
      const script = [
        "cat .env sub/deep/.env link-to-env hard-copy.txt certs/server.pem tool.env",
        'echo pwned > a.txt; echo "ws=$?"',
        'mkdir made; echo "mkdir=$?"',
        `echo pwned > "$HOME/planted"; echo "home=$?"`,
        `echo pwned > ${planted.outside}/planted; echo "outside=$?"`,
        `echo inner > ${inner} && cat ${inner}`,
        `cat ${p.ssh} ${p.aws} ${p.homeFile} ${p.outside} ${p.npmrc}`,
        `(echo hi > /dev/tcp/127.0.0.1/${port}) 2>/dev/null; echo "net=$?"`,
        "ls -la",
        "false", // a failed command is shown why its writes failed
      ].join("\n");
      const r = await h.host.call({ tool: "bash", args: { command: script } });
      const out = textOf(r);
      expect(r.value).toMatchObject({ sandbox: "read-only" });
      for (const secret of Object.values(SECRET)) expect(out).not.toContain(secret);
      // every ask-first file is there, empty and unreadable: nested, through a symlink, a hard link
      for (const f of [
        ".env",
        "sub/deep/.env",
        "link-to-env",
        "hard-copy.txt",
        "certs/server.pem",
        "tool.env",
      ])
        expect(out).toContain(`cat: ${f}: Permission denied`);
      expect(out).toMatch(/a\.txt: Read-only file system\nws=1/);
      expect(out).toMatch(/mkdir=1/);
      expect(out).toMatch(/home=1/);
      expect(out).toMatch(/outside=1/);
      expect(out).toContain("inner"); // its own /tmp is writable, and private
      expect(out).toMatch(/net=1/); // tools.sandboxNetwork is for approved commands only
      expect(out).toContain("[the command ran in a read-only sandbox");
      expect(readFileSync(path.join(ws, "a.txt"), "utf8")).toBe("original\n");
      for (const gone of [path.join(ws, "made"), path.join(planted.home, "planted"), inner])
        expect(existsSync(gone)).toBe(false);
      expect(existsSync(path.join(planted.outside, "planted"))).toBe(false);
      expect(connections).toBe(0);

      // a file made after that scan is hidden too: its folder's mtime moved
      writeFileSync(path.join(ws, "sub/deep/.env.local"), SECRET.dotenv);
      mkdirSync(path.join(ws, "later"));
      writeFileSync(path.join(ws, "later/id_rsa"), SECRET.dotenv);
      const again = await h.host.call({
        tool: "bash",
        args: { command: "cat sub/deep/.env.local later/id_rsa a.txt" },
      });
      expect(textOf(again)).not.toContain(SECRET.dotenv);
      expect(textOf(again)).toContain("cat: sub/deep/.env.local: Permission denied");
      expect(textOf(again)).toContain("cat: later/id_rsa: Permission denied");
      expect(textOf(again)).toContain("original");
    },
  );

  it.skipIf(!support.available)(
    "an approved program writes the workspace and runs a toolchain of the default list, and reads no credential store",
    async () => {
      const ws = workspace();
      const h = testHost([bashTool()], {
        workspace: ws,
        policy: { actionDefaults: CODING_ACTION_DEFAULTS },
        config: { "tools.sandbox": "workspace-write", "tools.sandboxReadable": nodeShown },
        ask: () => true,
      });
      const p = planted.paths;
      // a toolchain folder inside the workspace (a virtualenv) stays as writable as the workspace
      mkdirSync(path.join(ws, ".venv"));
      const savedVenv = process.env.VIRTUAL_ENV;
      process.env.VIRTUAL_ENV = path.join(ws, ".venv");
      const command = `${nodeReads([p.ssh, p.aws, p.homeFile, p.outside, p.npmrc, ".env"])}; ${p.probe}; node -e "require('fs').writeFileSync('made.txt', 'x'); require('fs').writeFileSync('.venv/pip.txt', 'x')"`;
      const r = await h.host.call({ tool: "bash", args: { command } }).finally(() => {
        if (savedVenv === undefined) delete process.env.VIRTUAL_ENV;
        else process.env.VIRTUAL_ENV = savedVenv;
      });
      const out = textOf(r);
      expect(r.value).toMatchObject({ sandbox: "workspace-write", exitCode: 0 });
      for (const secret of [SECRET.ssh, SECRET.aws, SECRET.homeFile, SECRET.outside, SECRET.npmrc])
        expect(out).not.toContain(secret);
      expect(out).toContain(`${p.ssh} FAILED ENOENT`);
      expect(out).toContain(`${p.outside} FAILED ENOENT`);
      // below ~/.nvm, which is shown: nvm's global npmrc is a credential store, there and unreadable
      expect(out).toContain(`${p.npmrc} FAILED EACCES`);
      // the user approved running a program in the workspace: its .env is the program's to read
      expect(out).toContain(`.env READ ${SECRET.dotenv}`);
      expect(out).toContain("toolchain-ran");
      expect(readFileSync(path.join(ws, "made.txt"), "utf8")).toBe("x");
      expect(readFileSync(path.join(ws, ".venv/pip.txt"), "utf8")).toBe("x");
    },
  );

  it.skipIf(!support.available)(
    "a .git file the workspace holds shows no folder it names: not the home folder, not the disk",
    async () => {
      const p = planted.paths;
      for (const named of [planted.home, path.dirname(planted.outside), "/"]) {
        const ws = writeTree(tempDir("tp-wall-gitfile-"), { ".git": `gitdir: ${named}\n` });
        const h = testHost([bashTool()], {
          workspace: ws,
          policy: { actionDefaults: CODING_ACTION_DEFAULTS },
          config: { "tools.sandbox": "workspace-write", "tools.sandboxReadable": nodeShown },
          ask: () => true,
        });
        const r = await h.host.call({ tool: "bash", args: { command: nodeReads([p.homeFile, p.outside]) } });
        expect(r.value, named).toMatchObject({ sandbox: "workspace-write", exitCode: 0 });
        expect(textOf(r), named).toContain(`${p.homeFile} FAILED ENOENT`);
        expect(textOf(r), named).toContain(`${p.outside} FAILED ENOENT`);
      }
    },
  );

  it.skipIf(!support.available)(
    "a store the user names in tools.sandboxReadable is shown, and only that one",
    async () => {
      const h = testHost([bashTool()], {
        policy: { actionDefaults: CODING_ACTION_DEFAULTS },
        config: { "tools.sandbox": "workspace-write", "tools.sandboxReadable": ["~/.aws", ...nodeShown] },
        ask: () => true,
      });
      const p = planted.paths;
      const r = await h.host.call({ tool: "bash", args: { command: nodeReads([p.aws, p.ssh, p.homeFile]) } });
      expect(textOf(r)).toContain(`${p.aws} READ ${SECRET.aws}`);
      expect(textOf(r)).not.toContain(SECRET.ssh);
      expect(textOf(r)).not.toContain(SECRET.homeFile);
    },
  );

  it.skipIf(!support.available)(
    "a workspace that is the home folder: its credential stores are there but covered, ~/.npmrc (an ask-first file too) once",
    async () => {
      writeTree(planted.home, { ".npmrc": SECRET.npmrc });
      const h = testHost([bashTool()], {
        workspace: planted.home,
        policy: { actionDefaults: CODING_ACTION_DEFAULTS },
        config: { "tools.sandbox": "workspace-write" },
      });
      const r = await h.host.call({ tool: "bash", args: { command: "ls -la; cat notes.txt" } });
      const out = textOf(r);
      expect(r.value).toMatchObject({ sandbox: "read-only", exitCode: 0 });
      expect(out).toMatch(/^d-{9} .* \.ssh$/m);
      expect(out).toMatch(/^d-{9} .* \.aws$/m);
      expect(out).toMatch(/^-{10} .* \.npmrc$/m);
      expect(out).toContain(SECRET.homeFile); // the workspace's own file: the read tool may read it
    },
  );

  it.skipIf(!support.available)("git works in a worktree whose repository lies outside it", async () => {
    const main = tempDir("tp-wall-main-");
    const git = (cwd: string, ...a: string[]) =>
      spawnSync("git", ["-C", cwd, "-c", "user.name=t", "-c", "user.email=t@e", ...a], { encoding: "utf8" });
    git(main, "init", "-q");
    writeTree(main, { "a.txt": "x\n" });
    git(main, "add", "a.txt");
    git(main, "commit", "-qm", "in-the-main-repository");
    const tree = path.join(tempDir("tp-wall-tree-"), "wt");
    git(main, "worktree", "add", "-q", tree);
    const h = testHost([bashTool()], {
      workspace: tree,
      policy: { actionDefaults: CODING_ACTION_DEFAULTS },
      config: { "tools.sandbox": "workspace-write" },
      ask: () => true, // git in a worktree asks (its .git is a file the classifier does not read)
    });
    const r = await h.host.call({ tool: "bash", args: { command: "git log --oneline; git status --short" } });
    expect(textOf(r)).toMatch(/[0-9a-f]{7,} in-the-main-repository/);
    expect(r.value).toMatchObject({ exitCode: 0 });
  });

  it.skipIf(!support.available)(
    "more ask-first files than one sandbox can cover: the command does not run, and says what to do",
    async () => {
      const ws = tempDir("tp-wall-many-");
      mkdirSync(path.join(ws, "keys"));
      // one process makes them all (a writeFileSync each took seconds on a loaded machine)
      spawnSync("bash", ["-c", `touch k{0..${HIDDEN_MAX}}.pem`], { cwd: path.join(ws, "keys") });
      const h = testHost([bashTool()], {
        workspace: ws,
        policy: { actionDefaults: CODING_ACTION_DEFAULTS },
        config: { "tools.sandbox": "workspace-write" },
      });
      const r = await h.host.call({ tool: "bash", args: { command: "echo ran" } });
      expect(r.error?.code).toBe("tool_error");
      expect(r.error?.message).toMatch(
        /2,001 files that permissions\.askFiles names .* ask the user to approve it/,
      );
      expect(textOf(r)).not.toMatch(/^ran$/m);
    },
  );

  it.skipIf(!support.available)(
    "run without a host (no verdict), the tool takes the least: read-only",
    async () => {
      const ws = workspace();
      const config: Record<string, unknown> = {};
      for (const [k, spec] of Object.entries(CONFIG_KEYS))
        if (spec.kind === "run-time") config[k] = spec.default;
      const value = await runBash(
        { command: "echo x > a.txt" },
        { signal: new AbortController().signal, cwd: ws, workspace: ws, config },
      );
      expect(value.sandbox).toBe("read-only");
      expect(value.output).toContain("Read-only file system");
      expect(readFileSync(path.join(ws, "a.txt"), "utf8")).toBe("original\n");
    },
  );
});
