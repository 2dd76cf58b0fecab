import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";
import { EVERYTHING, fake } from "./peers.js";

const withServers = (servers: Record<string, unknown>) =>
  tempProject({ ".toolplane/config.json": JSON.stringify({ mcp: { servers } }) }, { trust: true });

describe("CLI with MCP servers", () => {
  it("catalog --json lists server-everything's tools under qualified names", () => {
    const p = withServers({ everything: EVERYTHING });
    const r = runCli(["catalog", "--json"], { cwd: p.repo, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const names = out.tools.map((t: { name: string }) => t.name);
    expect(names).toContain("ticket_status");
    expect(names).toContain("mcp__everything__echo");
    expect(names).toContain("mcp__everything__get-sum");
    expect(out.incomplete).toBe(false);
  });

  it("a server that will not start: the catalog is incomplete, says why on stderr, keeps the rest", () => {
    const p = withServers({ silent: fake("silent", { startTimeoutMs: 500 }) });
    const r = runCli(["catalog", "--json"], { cwd: p.repo, env: p.env });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.incomplete).toBe(true);
    expect(out.tools.map((t: { name: string }) => t.name)).toContain("ticket_status");
    expect(r.stderr).toMatch(
      /MCP server "silent" .* failed to start: did not finish initialize within 500 ms/,
    );
  });

  it("a bad server entry in the config is a usage error naming the key", () => {
    const p = withServers({ broken: { args: ["x"] } });
    const r = runCli(["catalog", "--json"], { cwd: p.repo, env: p.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/mcp\.servers/);
  });

  it("serve --http with a bad port is a usage error", () => {
    const p = withServers({});
    const r = runCli(["serve", "--http", "banana"], { cwd: p.repo, env: p.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--http needs a port number/);
  });
});
