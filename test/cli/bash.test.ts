import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sandboxSupport } from "../../src/tools/sandbox/bwrap.js";
import { runCli } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

// without bubblewrap every command asks (README): these run commands a rule or the read-only set allows
const NO_SANDBOX = !sandboxSupport().available;

const ECHO_ONLY = `permissions.rules=${JSON.stringify([{ effect: "allow", action: "command", pattern: "echo *" }])}`;

describe("toolplane call bash / edit / write", () => {
  it.skipIf(NO_SANDBOX)(
    "with only `echo *` allowed: echo runs, its write asks (denied without --yes, done with it)",
    () => {
      const { repo, env } = tempProject();
      const hi = runCli(
        ["call", "bash", "--cwd", repo, "--args", '{"command":"echo hi"}', "--set", ECHO_ONLY],
        { env },
      );
      expect(hi.code).toBe(0);
      expect(hi.stdout).toContain("hi\n");
      expect(hi.stdout).toContain("[exit code 0]");

      const args = [
        "call",
        "bash",
        "--cwd",
        repo,
        "--args",
        '{"command":"echo x > out.txt"}',
        "--set",
        ECHO_ONLY,
      ];
      const denied = runCli([...args, "--json"], { env });
      expect(denied.code).toBe(1);
      const result = JSON.parse(denied.stdout);
      expect(result.error.code).toBe("permission_denied");
      expect(result.error.message).toContain('bash (write) needs approval for path "out.txt"');
      expect(denied.stderr).toContain("or with --yes to approve every ask");
      expect(existsSync(path.join(repo, "out.txt"))).toBe(false);

      const approved = runCli([...args, "--yes"], { env });
      expect(approved.code).toBe(0);
      expect(readFileSync(path.join(repo, "out.txt"), "utf8")).toBe("x\n");
    },
  );

  it("a command no rule allows asks by default; --yes runs it and the exit code is reported", () => {
    const { repo, env } = tempProject();
    const args = ["call", "bash", "--cwd", repo, "--args", '{"command":"uname --no-such-option"}'];
    const asked = runCli(args, { env });
    expect(asked.code).toBe(1);
    expect(asked.stdout).toContain("an option the classifier does not know");
    const ran = runCli([...args, "--yes"], { env });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/unrecognized option[\s\S]*\[exit code 1\]/);
  });

  it.skipIf(NO_SANDBOX)(
    "the default read-only set runs with no rule: `ls missing-dir` runs and reports its exit code",
    () => {
      const { repo, env } = tempProject();
      const ran = runCli(["call", "bash", "--cwd", repo, "--args", '{"command":"ls missing-dir"}'], { env });
      expect(ran.code).toBe(0);
      expect(ran.stdout).toMatch(/No such file or directory[\s\S]*\[exit code 2\]/);
      // outside the workspace it is a read the boundary denies, as the read tool's would be
      const outside = runCli(
        ["call", "bash", "--cwd", repo, "--yes", "--args", '{"command":"cat /etc/hostname"}'],
        { env },
      );
      expect(outside.code).toBe(1);
      expect(outside.stdout).toContain("workspace boundary");
    },
  );

  it("edit refuses a file this session has not read (each `toolplane call` is a session of its own)", () => {
    const { repo, env } = tempProject({ "a.txt": "x\n" });
    const r = runCli(
      ["call", "edit", "--cwd", repo, "--yes", "--args", '{"path":"a.txt","oldString":"x","newString":"y"}'],
      { env },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("has not been read in this session: read it first");
    expect(readFileSync(path.join(repo, "a.txt"), "utf8")).toBe("x\n");
  });

  it("write creates a file only when approved", () => {
    const { repo, env } = tempProject();
    const args = ["call", "write", "--cwd", repo, "--args", '{"path":"n/new.txt","content":"hi\\n"}'];
    expect(runCli(args, { env }).code).toBe(1);
    expect(existsSync(path.join(repo, "n", "new.txt"))).toBe(false);
    const r = runCli([...args, "--yes"], { env });
    expect(r.stdout).toContain("Created n/new.txt (1 line, 3 bytes).");
    expect(readFileSync(path.join(repo, "n", "new.txt"), "utf8")).toBe("hi\n");
  });
});

describe("toolplane doctor: the sandbox row", () => {
  it("says when bubblewrap is missing, and how to install it", () => {
    const { repo, env } = tempProject();
    const r = runCli(["doctor", "--cwd", repo, "--json"], {
      env: { ...env, TOOLPLANE_BWRAP: "/nonexistent/bwrap" },
    });
    const row = JSON.parse(r.stdout).checks.find((c: { check: string }) => c.check === "sandbox");
    expect(row.ok).toBe(false);
    expect(row.detail).toContain("cannot be sandboxed here, so each one asks first");
    // and what is lost: no second wall behind the permission check
    expect(row.detail).toContain(
      "an approved one runs unsandboxed (it reads the whole disk): the permission check alone holds",
    );
    expect(row.fix).toContain("apt-get install bubblewrap");
  });

  it.skipIf(!sandboxSupport().available)("passes where bubblewrap works", () => {
    const { repo, env } = tempProject();
    const r = runCli(["doctor", "--cwd", repo, "--json"], { env });
    const row = JSON.parse(r.stdout).checks.find((c: { check: string }) => c.check === "sandbox");
    expect(row).toMatchObject({ station: "tools", ok: true });
    expect(row.detail).toContain("a command that needs no approval read-only");
    expect(row.detail).toContain("with the workspace writable (no network)");
    expect(row.detail).toContain("no other file of the home folder or credential store");
  });
});

describe("toolplane doctor: the bash parser row", () => {
  it("names the runtime that parses commands here, and follows TOOLPLANE_BASH_PARSER", async () => {
    const { bashParser } = await import("../../src/tools/bash/parser.js");
    const nativeHere = await bashParser("native").then(
      () => true,
      () => false,
    );
    const { repo, env } = tempProject();
    const rowOf = (extra: NodeJS.ProcessEnv) => {
      const r = runCli(["doctor", "--cwd", repo, "--json"], { env: { ...env, ...extra } });
      return JSON.parse(r.stdout).checks.find((c: { check: string }) => c.check === "bash-parser");
    };
    const auto = rowOf({});
    expect(auto).toMatchObject({ station: "tools", ok: true });
    expect(auto.detail).toContain(nativeHere ? "native binding (tree-sitter)" : "web-tree-sitter (wasm)");
    const wasm = rowOf({ TOOLPLANE_BASH_PARSER: "wasm" });
    expect(wasm).toMatchObject({ ok: true });
    expect(wasm.detail).toContain("as TOOLPLANE_BASH_PARSER=wasm asks");
  });
});
