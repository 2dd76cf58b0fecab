import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/index.js";
import { CLI, runCli } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

const projectFile = (repo: string) => path.join(repo, ".toolplane", "config.json");

describe("configuration files that are not plain files", () => {
  it("a FIFO as the project's config.json is refused at once, naming the layer (CLI: exit 2)", () => {
    const p = tempProject();
    mkdirSync(path.join(p.repo, ".toolplane"));
    execFileSync("mkfifo", [projectFile(p.repo)]);
    const r = runCli(["catalog"], { cwd: p.repo, env: p.env, timeoutMs: 20_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${projectFile(p.repo)}: the project configuration file is a FIFO (named pipe), not a regular file`,
    );
  });

  it("a link to /dev/zero as the user's config.json is refused before a byte is read", () => {
    const p = tempProject();
    const home = path.join(p.home, ".config", "toolplane");
    mkdirSync(home, { recursive: true });
    symlinkSync("/dev/zero", path.join(home, "config.json"));
    // in a child with its memory capped: read whole, /dev/zero would grow without end
    const r = spawnSync(
      "sh",
      ["-c", 'ulimit -v 3000000 && exec "$0" "$@"', process.execPath, CLI, "config"],
      {
        cwd: p.repo,
        env: p.env,
        encoding: "utf8",
        timeout: 30_000,
      },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/the user configuration file is a character device, not a regular file/);
    const load = () => loadConfig({ cwd: p.repo, env: p.env });
    expect(load).toThrow(ConfigError);
  });

  it("a config file over 1 MiB is refused with its size limit", () => {
    const p = tempProject();
    mkdirSync(path.join(p.repo, ".toolplane"));
    writeFileSync(projectFile(p.repo), `{"tools": {"disabled": [${'"x",'.repeat(300_000)}"y"]}}`);
    expect(() => loadConfig({ cwd: p.repo, env: p.env })).toThrow(
      /the project configuration file is larger than 1048576 bytes \(1 MiB\)/,
    );
  });
});

describe("duration keys are bounded by what a timer can hold", () => {
  const cases: Array<[string, string]> = [
    ["tools.timeoutMs", String(2 ** 31)],
    ["tools.timeouts", JSON.stringify({ read: 2 ** 31 })],
    ["tools.providerTimeoutMs", String(2 ** 40)],
    ["mcp.servers", JSON.stringify({ s: { url: "http://127.0.0.1:9/", timeoutMs: 2 ** 31 } })],
    ["mcp.servers", JSON.stringify({ s: { command: "x", startTimeoutMs: 1e12 } })],
  ];
  it.each(cases)("%s=%s is refused (setTimeout would fire after 1 ms)", (key, value) => {
    const p = tempProject();
    expect(() => loadConfig({ cwd: p.repo, env: p.env, set: [`${key}=${value}`] })).toThrow(
      /at most 2147483647 ms/,
    );
  });

  it("the largest timer delay is accepted", () => {
    const p = tempProject();
    const cfg = loadConfig({ cwd: p.repo, env: p.env, set: [`tools.timeoutMs=${2 ** 31 - 1}`] });
    expect(cfg.get("tools.timeoutMs")).toBe(2 ** 31 - 1);
  });

  it("skills.auditIntervalMs is 0 (never) or between 1 s and a day", () => {
    const p = tempProject();
    const at = (v: number) => () =>
      loadConfig({ cwd: p.repo, env: p.env, set: [`skills.auditIntervalMs=${v}`] });
    for (const bad of [1, 999, 86_400_001, 2 ** 31, 1e12]) {
      expect(at(bad)).toThrow(
        /"skills.auditIntervalMs" is invalid: 0 \(never\) or from 1000 ms to 86400000 ms/,
      );
    }
    for (const good of [0, 1000, 60_000, 86_400_000])
      expect(at(good)().get("skills.auditIntervalMs")).toBe(good);
    const r = runCli(["config", "--set", `skills.auditIntervalMs=${2 ** 32}`], { cwd: p.repo, env: p.env });
    expect(r.code).toBe(2);
  });
});
