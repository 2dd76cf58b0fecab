import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runJson } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

describe("CLI contract: call", () => {
  const p = tempProject();
  const opts = { cwd: p.repo, env: { ...p.env, TMPDIR: path.join(p.root, "tmp") } };

  it("runs a call through the host: the contract fields, exit 0", () => {
    const r = runCli(["call", "ticket_status", "--args", '{"ticket_id":"T-1002"}', "--json"], opts);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toEqual({
      tool: "ticket_status",
      isError: false,
      content: [{ type: "text", text: "status: resolved\nsummary: Export to CSV drops the last row" }],
      truncated: false,
      value: { status: "resolved", summary: "Export to CSV drops the last row" },
    });
  });

  it.each([
    ["unknown tool", ["call", "tickt_status", "--args", "{}"], "unknown_tool", /Did you mean ticket_status/],
    [
      "bad arguments",
      ["call", "ticket_status", "--args", '{"ticket":1}'],
      "invalid_arguments",
      /\/ticket_id: is required/,
    ],
    [
      "a throwing tool",
      ["call", "ticket_status", "--args", '{"ticket_id":"NOPE"}'],
      "tool_error",
      /no ticket "NOPE"/,
    ],
  ])("%s: isError result, error code, exit 1", (_label, args, code, says) => {
    const r = runCli([...args, "--json"], opts);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ tool: args[1], isError: true, truncated: false, error: { code } });
    expect(out.error.message).toMatch(says);
  });

  it("permissions: a tool denied outright leaves the catalog and its call is denied", () => {
    const deny = [
      "--set",
      'permissions.rules=[{"effect":"deny","tool":"ticket_status","reason":"no tickets here"}]',
    ];
    const catalog = runJson(["catalog", ...deny], opts);
    expect(JSON.stringify(catalog.tools)).not.toContain("ticket_status");
    const r = runCli(["call", "ticket_status", "--args", '{"ticket_id":"T-1"}', "--json", ...deny], opts);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe("permission_denied");
    expect(JSON.parse(r.stdout).error.message).toMatch(/denied by .*--set/);
  });

  it("ask is denied without --yes and runs with it", () => {
    const ask = ["--set", 'permissions.rules=[{"effect":"ask","tool":"ticket_status"}]'];
    const no = runCli(["call", "ticket_status", "--args", '{"ticket_id":"T-1001"}', "--json", ...ask], opts);
    expect(no.code).toBe(1);
    expect(JSON.parse(no.stdout).error).toMatchObject({ code: "permission_denied" });
    expect(no.stderr).toMatch(/--yes/);
    const yes = runCli(
      ["call", "ticket_status", "--args", '{"ticket_id":"T-1001"}', "--json", "--yes", ...ask],
      opts,
    );
    expect(yes.code).toBe(0);
    expect(yes.stderr).toMatch(/approved \(--yes\)/);
  });

  it("parameter rules reach the CLI host", () => {
    const rule = '[{"effect":"deny","param":{"pointer":"/ticket_id","glob":"INC-*"}}]';
    const r = runCli(
      [
        "call",
        "ticket_status",
        "--args",
        '{"ticket_id":"INC-7"}',
        "--json",
        "--set",
        `permissions.rules=${rule}`,
      ],
      opts,
    );
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe("permission_denied");
    expect(
      runCli(
        ["call", "ticket_status", "--args", '{"ticket_id":"T-1001"}', "--set", `permissions.rules=${rule}`],
        opts,
      ).code,
    ).toBe(0);
  });

  it("limits and spill apply: over the inline limit the result spills and says where", () => {
    const spillDir = path.join(p.root, "spill");
    const r = runCli(
      [
        "call",
        "ticket_status",
        "--args",
        '{"ticket_id":"T-1002","include_history":true}',
        "--json",
        "--set",
        "results.inlineMaxBytes=60",
        "--set",
        `results.spillDir=${JSON.stringify(spillDir)}`,
      ],
      opts,
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.truncated).toBe(true);
    expect(out.spillPath.startsWith(spillDir)).toBe(true);
    expect(existsSync(out.spillPath)).toBe(true);
    expect(statSync(out.spillPath).mode & 0o777).toBe(0o600);
    expect(out.content[0].text).toContain(out.spillPath);
  });

  it("human output prints the content; --help has examples", () => {
    const r = runCli(["call", "ticket_status", "--args", '{"ticket_id":"T-1001"}'], opts);
    expect(r.stdout).toBe("status: in_progress\nsummary: Login page returns 500 after password reset\n");
    expect(runCli(["call", "--help"], opts).stdout).toMatch(/Examples:/);
    expect(runCli(["call"], opts).code).toBe(2);
  });

  it("exits after printing even when a tool leaves a timer running", () => {
    const lingering = tempProject(
      {
        ".toolplane/config.json": JSON.stringify({ tools: { modules: ["linger.mjs"] } }),
        // returns at once but leaves a referenced interval behind, as a careless tool might
        "linger.mjs": `export const tools = [{ name: "linger", description: "Returns and leaves a timer.", parameters: { type: "object", properties: {} }, output: { schema: { type: "string" }, render: (v) => v }, execute: () => { setInterval(() => {}, 1000); return "done"; } }];`,
      },
      { trust: true },
    );
    const r = runCli(["call", "linger"], {
      cwd: lingering.repo,
      env: { ...lingering.env, TMPDIR: path.join(lingering.root, "tmp") },
      timeoutMs: 20_000,
    });
    expect(r.stdout).toBe("done\n");
    expect(r.code).toBe(0);
  });
});

describe("CLI contract: config", () => {
  const p = tempProject({ ".toolplane/config.json": '{"tools":{"timeoutMs":5000}}' });
  const env = { ...p.env, TOOLPLANE_GREP_MAX_MATCHES: "9" };

  it("--json: {values: {key: {value, layer, kind, source}}} for every key", () => {
    const out = runJson(["config", "--set", "catalog.budget.chars=1234"], { cwd: p.repo, env });
    expect(out.values["catalog.budget.chars"]).toEqual({
      value: 1234,
      layer: "cli",
      kind: "assembly",
      source: "--set",
    });
    expect(out.values["grep.maxMatches"]).toEqual({
      value: 9,
      layer: "env",
      kind: "run-time",
      source: "TOOLPLANE_GREP_MAX_MATCHES",
    });
    expect(out.values["tools.timeoutMs"]).toMatchObject({ value: 5000, layer: "project", kind: "run-time" });
    expect(out.values["tools.timeoutMs"].source).toMatch(/\.toolplane\/config\.json$/);
    expect(out.values["results.inlineMaxBytes"]).toEqual({
      value: 51200,
      layer: "default",
      kind: "run-time",
    });
    for (const v of Object.values(out.values) as Array<{ kind: string; layer: string }>) {
      expect(["assembly", "run-time"]).toContain(v.kind);
    }
  });

  it("a bad key is bad usage: exit 2, one line naming the source and key", () => {
    const r = runCli(["config", "--set", "tools.timeoutMs=soon"], { cwd: p.repo, env });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/--set: "tools\.timeoutMs" has the wrong type: expected number/);
  });

  it("human output shows layer and kind", () => {
    const r = runCli(["config"], { cwd: p.repo, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/grep\.maxMatches\s+9\s+\[env: TOOLPLANE_GREP_MAX_MATCHES\] \(run-time\)/);
  });
});
