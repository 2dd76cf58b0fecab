// A server that never answers, or that ignores the signals meant to stop it, through the CLI and
// through a library process that exits without closing: nothing waits for it and nothing outlives toolplane.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/cli.js";
import { processesWith } from "../helpers/processes.js";
import { tempDir, tempProject } from "../helpers/tmp.js";
import { fake, spawnTimes, waitFor } from "./peers.js";

const withServers = (servers: Record<string, unknown>) =>
  tempProject(
    { ".toolplane/config.json": JSON.stringify({ mcp: { servers } }), "notes.txt": "alpha\n" },
    { trust: true },
  );

/** The fake's command line as /proc shows it. */
const commandLine = (server: { command: string; args: string[] }) =>
  [server.command, ...server.args].join(" ");

describe("MCP servers and the CLI's lifetime", () => {
  it("call of a built-in starts no server; a call of the hung server's tool names it and leaves no process", async () => {
    const log = path.join(tempDir("tp-spawns-"), "spawns");
    const hung = fake("hung", { startTimeoutMs: 1000 }, log);
    const p = withServers({ hung });
    const read = runCli(["call", "read", "--args", '{"path": "notes.txt"}'], { cwd: p.repo, env: p.env });
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toMatch(/alpha/);
    // not merely fast: the server was never started
    expect(spawnTimes(log)).toEqual([]);

    const r = runCli(["call", "mcp__hung__small", "--args", "{}"], { cwd: p.repo, env: p.env });
    expect(r.code).toBe(1);
    expect(spawnTimes(log).length).toBe(1);
    // its name, its command, how long it was given, and the tail of its stderr
    expect(r.stdout).toMatch(
      /mcp__hung__small is not available right now: MCP server "hung" \(\S+ \S+fake\.mjs hung \S+\) failed to start: did not finish initialize within 1000 ms \(stderr: hung: loading a very large index\)/,
    );
    // it ignores SIGTERM and the end of its input, and still does not outlive the CLI
    await waitFor("the hung server to be gone", () => processesWith(commandLine(hung)).length === 0, 5_000);
  });

  it("an unknown name outside mcp__ says how MCP tools are named (their servers were not started)", () => {
    const log = path.join(tempDir("tp-spawns-"), "spawns");
    const p = withServers({ hung: fake("hung", { startTimeoutMs: 1000 }, log) });
    const r = runCli(["call", "small", "--args", "{}"], { cwd: p.repo, env: p.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/there is no tool named "small"/);
    expect(r.stderr).toMatch(/named mcp__<server>__<tool>; `toolplane catalog` lists them/);
    expect(spawnTimes(log)).toEqual([]);
  });

  it("a library process that exits without closing takes its servers with it", async () => {
    const clingy = fake("clingy");
    const p = withServers({ clingy });
    const script = [
      `const { Toolplane } = await import(${JSON.stringify(path.join(ROOT, "dist", "src", "index.js"))});`,
      `const plane = await Toolplane.open({ cwd: ${JSON.stringify(p.repo)}, bundledSkills: null });`,
      `const names = (await plane.visibleTools()).map((t) => t.name);`,
      `console.log(JSON.stringify({ names, pid: plane.mcp.provider("clingy").pid }));`,
      // no plane.close(): the harness just ends
      "process.exit(0);",
    ].join("\n");
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: p.repo,
      env: p.env,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.names).toContain("mcp__clingy__small");
    expect(typeof out.pid).toBe("number");
    await waitFor(
      "the clingy server to be gone",
      () => processesWith(commandLine(clingy)).length === 0,
      5_000,
    );
  });
});
