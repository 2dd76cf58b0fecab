// Messages a person meets from the CLI say what to do next from a shell; the result's own text
// (what a model reads) stays as the model needs it.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxSupport } from "../../src/tools/sandbox/bwrap.js";
import { CLI, runCli } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

// without bubblewrap every command asks (README): these run commands a rule or the read-only set allows
const NO_SANDBOX = !sandboxSupport().available;

describe("messages for a person at a shell", () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    port = (taken.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it("a port in use: one line naming the port and the option that picks another (serve and inspect)", () => {
    const p = tempProject();
    const serve = runCli(["serve", "--http", String(port), "--no-auth"], { cwd: p.repo, env: p.env });
    expect(serve.code).toBe(1);
    expect(serve.stderr.trim()).toBe(
      `toolplane: port ${port} on 127.0.0.1 is already in use: choose another with --http PORT, or --http 0 for a free one`,
    );
    const inspect = runCli(["inspect", "--port", String(port)], { cwd: p.repo, env: p.env });
    expect(inspect.code).toBe(1);
    expect(inspect.stderr).toMatch(
      /already in use: choose another with --port PORT, or --port 0 for a free one\n$/,
    );
    expect(inspect.stderr).not.toMatch(/EADDRINUSE/);
  });

  it.skipIf(NO_SANDBOX)(
    "a spilled result: the model's text says to page with read, the person is told to open the kept file",
    () => {
      const p = tempProject({ "big.txt": `${"x".repeat(80)}\n`.repeat(5_000) });
      const r = runCli(["call", "bash", "--args", '{"command": "cat big.txt"}'], { cwd: p.repo, env: p.env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/The full output is saved in (\S+)\]/);
      const file = /the whole output is in (\S+); open it with a pager/.exec(r.stderr)?.[1];
      expect(file).toBeDefined();
      // kept after the process ended, whole
      expect(existsSync(file!)).toBe(true);
      expect(readFileSync(file!, "utf8")).toBe(readFileSync(`${p.repo}/big.txt`, "utf8"));
    },
  );

  it("an unknown tool: tool_search is named as the way to find one, not listed; the shell gets its own commands", () => {
    const p = tempProject();
    const r = runCli(["call", "raed", "--args", "{}"], { cwd: p.repo, env: p.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/there is no tool named "raed"\. Did you mean read\?/);
    const far = runCli(["call", "zzzzqqq", "--args", "{}"], { cwd: p.repo, env: p.env });
    const listed = /Available tools: ([^.]*)\./.exec(far.stdout)?.[1]?.split(", ");
    expect(listed).toContain("read");
    expect(listed).not.toContain("tool_search");
    expect(far.stdout).toMatch(/To find a tool by what it does, call tool_search\./);
    expect(far.stderr).toMatch(/`toolplane search QUERY` finds one by what it does/);
  });

  it("a call names what runs with the tool's display part, on stderr; the model's text is apart", () => {
    const p = tempProject({ "notes.txt": "alpha\n" });
    const r = runCli(["call", "read", "--args", '{"path": "notes.txt", "offset": 1}'], {
      cwd: p.repo,
      env: p.env,
    });
    expect(r.code).toBe(0);
    expect(r.stderr.split("\n")[0]).toBe("Read: read notes.txt:1");
    expect(r.stdout).not.toContain("Read: read");
    // --json prints the result only
    const json = runCli(["call", "read", "--json", "--args", '{"path": "notes.txt"}'], {
      cwd: p.repo,
      env: p.env,
    });
    expect(json.stderr).not.toContain("Read:");
  });

  it.skipIf(NO_SANDBOX)("Ctrl-C ends a one-shot command with 130", async () => {
    const p = tempProject();
    // a call that waits: a command that sleeps (allowed by a rule for this run)
    const child = spawn(
      process.execPath,
      [
        CLI,
        "call",
        "bash",
        "--cwd",
        p.repo,
        "--set",
        'permissions.rules=[{"effect":"allow","action":"command","pattern":"sleep *"}]',
        "--args",
        '{"command": "sleep 30"}',
      ],
      { env: p.env, stdio: ["ignore", "pipe", "pipe"] },
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(code).toBe(130);
  });
});
