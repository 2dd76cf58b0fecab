import { describe, expect, it } from "vitest";
import { withMcpAliases } from "../../src/assemble/policy.js";
import { loadConfig } from "../../src/config/index.js";
import { qualifyToolNames, serverKey } from "../../src/mcp/names.js";
import {
  evaluatePermission,
  type PermissionRequest,
  type PermissionRule,
  permissionRuleSchema,
} from "../../src/permissions/index.js";
import { runCli } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";
import { fake } from "../mcp/peers.js";

const decide = (rule: PermissionRule, tool: string, namespace: string) => {
  const request: PermissionRequest = { tool, namespace, patterns: [], paths: [], args: {} };
  const policy = {
    rules: [withMcpAliases({ rule, origin: "r" })],
    defaultEffect: "allow" as const,
    workspaceBoundary: true,
    askFiles: [],
    caseInsensitive: false,
  };
  return evaluatePermission(request, policy).effect;
};

describe("rules name MCP tools in the documented namespace forms", () => {
  it("mcp:<server>/<tool> by the server's own name, by the model's name, by glob, and namespace + tool", () => {
    const echo = ["mcp__good__echo", "mcp:good"] as const;
    for (const rule of [
      { effect: "deny", tool: "mcp:good/echo" },
      { effect: "deny", tool: "mcp:good/mcp__good__echo" },
      { effect: "deny", tool: "mcp:good/*" },
      { effect: "deny", tool: "mcp:good/ec*" },
      { effect: "deny", tool: "mcp:*/echo" },
      { effect: "deny", namespace: "mcp:good", tool: "echo" },
      { effect: "deny", namespace: "mcp:good" },
      { effect: "deny", tool: "mcp__good__echo" },
    ] as PermissionRule[]) {
      expect(decide(rule, ...echo), JSON.stringify(rule)).toBe("deny");
      expect(decide(rule, "mcp__other__echo", "mcp:other"), JSON.stringify(rule)).toBe(
        rule.tool === "mcp:*/echo" ? "deny" : "allow",
      );
    }
    expect(decide({ effect: "deny", tool: "mcp:good/echo" }, "mcp__good__echo_all", "mcp:good")).toBe(
      "allow",
    );
    // a server name that needed sanitising, and a tool name too long for the plain form
    const long = "x".repeat(70);
    const longName = qualifyToolNames("good", [long]).get(long)!;
    expect(decide({ effect: "deny", tool: `mcp:good/${long}` }, longName, "mcp:good")).toBe("deny");
    expect(
      decide(
        { effect: "deny", tool: "mcp:my.server/echo" },
        `mcp__${serverKey("my.server")}__echo`,
        "mcp:my.server",
      ),
    ).toBe("deny");
  });

  it("a tool condition that can never match is refused, naming it and the form that works", () => {
    const bad = (tool: string) =>
      permissionRuleSchema().safeParse({ effect: "deny", tool }).error?.issues[0]?.message;
    expect(bad("mcp:good.echo")).toMatch(
      /^tool "mcp:good.echo" can never match: a tool name has only letters/,
    );
    expect(bad("mcp:good")).toMatch(
      /write "<namespace>\/<tool>" \(e.g. "mcp:github\/create_issue"\), for a whole namespace "namespace"/,
    );
    expect(bad("mcp:*")).toMatch(/can never match/);
    expect(bad("Bash(git push:*)")).toMatch(/put the rest in "pattern"/);
    expect(bad("mcp:good/")).toMatch(/write "<namespace>\/<name>"/);
    expect(bad("a".repeat(65))).toMatch(/at most 64 characters/);
    for (const ok of [
      "read",
      "fs_*",
      "mcp:good/echo",
      "mcp:good/has.dot",
      "mcp:*/*",
      "module:tools/a.mjs/alpha",
      "*",
    ])
      expect(bad(ok), ok).toBeUndefined();
    const p = tempProject();
    expect(() =>
      loadConfig({
        cwd: p.repo,
        env: p.env,
        set: ['permissions.rules=[{"effect":"deny","tool":"mcp:good.echo"}]'],
      }),
    ).toThrow(/"permissions.rules" is invalid at \[0\]\.tool: tool "mcp:good.echo" can never match/);
  });

  it("through the CLI: a deny for mcp:good/p1 takes that tool out of the catalog and denies its call", () => {
    const p = tempProject();
    const set = [
      "--set",
      `mcp.servers=${JSON.stringify({ good: fake("paged") })}`,
      "--set",
      'permissions.rules=[{"effect":"deny","tool":"mcp:good/p1"},{"effect":"deny","namespace":"mcp:good","tool":"p2"}]',
    ];
    const opts = { cwd: p.repo, env: p.env };
    const catalog = runCli(["catalog", "--json", ...set], opts);
    expect(catalog.code, catalog.stderr).toBe(0);
    const names = JSON.parse(catalog.stdout).tools.map((t: { name: string }) => t.name);
    expect(names).toContain("mcp__good__p3");
    expect(names).not.toContain("mcp__good__p1");
    expect(names).not.toContain("mcp__good__p2");
    const call = runCli(["call", "mcp__good__p1", "--json", ...set], opts);
    expect(call.code).toBe(1);
    expect(JSON.parse(call.stdout).error.code).toBe("permission_denied");
    const never = runCli(
      ["catalog", "--set", 'permissions.rules=[{"effect":"deny","tool":"mcp:good.p1"}]'],
      opts,
    );
    expect(never.code).toBe(2);
    expect(never.stderr).toContain('tool "mcp:good.p1" can never match');
  });
});
