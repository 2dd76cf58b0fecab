// A call that needs approval, as a person meets it: on a terminal (a pseudo-terminal from
// util-linux's `script`) it is asked y/N; without a terminal it is denied with how to approve.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { answeringOnTty, HAS_SCRIPT, TTY_SKIP } from "../helpers/terminal.js";
import { tempProject } from "../helpers/tmp.js";

if (!HAS_SCRIPT) console.warn(`skipping the y/N prompt tests: ${TTY_SKIP}`);

const callOnTerminal = (cwd: string, env: NodeJS.ProcessEnv, args: string[], answer: string) =>
  answeringOnTty(["call", ...args], { cwd, env, prompt: "Approve? [y/N]", answer });

function project() {
  const p = tempProject({ "notes.txt": "alpha\n" });
  return { ...p, env: { ...p.env, TOOLPLANE_HOME: path.join(p.home, ".toolplane") } };
}

const WRITE = ["write", "--args", '{"path": "new.txt", "content": "hello\\n"}'];

describe.skipIf(!HAS_SCRIPT)("toolplane call on a terminal: each ask is a y/N question", () => {
  it("y approves: the question names the tool, the action, the path and the rule that asks", async () => {
    const p = project();
    const r = await callOnTerminal(p.repo, p.env, WRITE, "y");
    expect(r.asked).toBe(1);
    expect(r.output).toMatch(/write needs your approval:/);
    expect(r.output).toMatch(/write path "new\.txt"/);
    expect(r.output).toMatch(/asks because of: default for action write \(no rule allows it\)/);
    expect(r.code, r.output).toBe(0);
    expect(readFileSync(path.join(p.repo, "new.txt"), "utf8")).toBe("hello\n");
  });

  it("n (or anything but y) denies, and the file is not written", async () => {
    const p = project();
    const r = await callOnTerminal(p.repo, p.env, WRITE, "n");
    expect(r.asked).toBe(1);
    expect(r.code).toBe(1);
    expect(r.output).toMatch(/permission_denied/);
    expect(existsSync(path.join(p.repo, "new.txt"))).toBe(false);
  });

  it("a shell command lists each command it would run and each path it would write, asked once", async () => {
    const p = project();
    const args = ["bash", "--args", JSON.stringify({ command: "echo hi > out.txt && rm notes.txt" })];
    const r = await callOnTerminal(p.repo, p.env, args, "n");
    expect(r.asked).toBe(1);
    expect(r.output).toMatch(/bash needs your approval:/);
    expect(r.output).toMatch(/command pattern "rm notes\.txt"/);
    expect(r.output).toMatch(/write path "out\.txt"/);
    expect(existsSync(path.join(p.repo, "notes.txt"))).toBe(true);
  });
});

describe("toolplane call without a terminal", () => {
  it("an ask is denied, and the CLI says how to approve it", () => {
    const p = project();
    const r = runCli(["call", ...WRITE], { cwd: p.repo, env: p.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/not approved/);
    expect(r.stderr).toMatch(/run it on a terminal to be asked, or with --yes/);
    expect(existsSync(path.join(p.repo, "new.txt"))).toBe(false);
  });

  it("--yes approves every ask and says what it approved", () => {
    const p = project();
    const r = runCli(["call", ...WRITE, "--yes"], { cwd: p.repo, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/approved \(--yes\): write \(write\) needs approval for path "new\.txt"/);
    expect(readFileSync(path.join(p.repo, "new.txt"), "utf8")).toBe("hello\n");
  });
});
