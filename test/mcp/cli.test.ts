import { describe, expect, it } from "vitest";
import { runCli, runJson } from "../helpers/cli.js";
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

  it("a server's tools are deferred from the start, under any threshold; defer: auto leaves them to it", () => {
    const p = withServers({ everything: EVERYTHING });
    const names = runJson(["catalog", "--provider", "openai-chat"], { cwd: p.repo, env: p.env });
    const resident = names.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(resident).toEqual(expect.arrayContaining(["read", "bash", "ticket_status", "tool_search"]));
    expect(resident.some((n: string) => n.startsWith("mcp__"))).toBe(false);
    expect(names.deferred).toContain("mcp__everything__echo");
    const why = names.report.deferral.changes.find((c: { names: string[] }) =>
      c.names.includes("mcp__everything__echo"),
    );
    expect(why.reason).toBe("marked defer: always (MCP server tool)");
    // the server's own mark, under the threshold: resident
    const auto = withServers({ everything: { ...EVERYTHING, defer: "auto" } });
    const out = runJson(["catalog", "--provider", "openai-chat"], { cwd: auto.repo, env: auto.env });
    expect(out.deferred).toEqual([]);
    expect(out.tools.map((t: { function: { name: string } }) => t.function.name)).toContain(
      "mcp__everything__echo",
    );
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
