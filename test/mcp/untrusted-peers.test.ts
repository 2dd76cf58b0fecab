import { statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/index.js";
import type { AnyTool } from "../../src/declare/types.js";
import { type McpClients, registerMcpServers } from "../../src/mcp/index.js";
import { Registry } from "../../src/register/index.js";
import { tempDir, tempProject } from "../helpers/tmp.js";
import { ctx, fake, spawnTimes, waitFor } from "./peers.js";

// Each test here is one way a misbehaving MCP server used to take more than its own tools down.
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** A Toolplane whose mcp.servers come from the CLI layer (trusted: the user typed it). */
async function plane(servers: Record<string, unknown>, set: string[] = []) {
  const p = tempProject({ "notes.txt": "first line\nsecond line\n" });
  const opened = await Toolplane.open({
    cwd: p.repo,
    env: p.env,
    bundledSkills: null,
    set: [`mcp.servers=${JSON.stringify(servers)}`, "tools.examples=false", ...set],
  });
  cleanup.push(() => opened.close());
  return opened;
}

function registry(
  servers: Parameters<typeof registerMcpServers>[1],
  backoff = { initialMs: 200, maxMs: 1000 },
) {
  const reg = new Registry<AnyTool>({ kind: "tool" });
  const logs: string[] = [];
  const clients: McpClients = registerMcpServers(reg, servers, { log: (l) => logs.push(l), backoff });
  cleanup.push(() => clients.close());
  return { registry: reg, clients, logs };
}

const sleep = (ms: number) => new Promise<"stalled">((resolve) => setTimeout(() => resolve("stalled"), ms));

describe("an unresponsive MCP server does not stall other tools", () => {
  it("a built-in read answers while the server's retry hangs in initialize", async () => {
    const log = path.join(tempDir("tp-mcp-spawns-"), "spawns");
    // first start exits at once (a fast failure), every later start never answers initialize
    const tp = await plane({ stuck: fake("crashfirst", { startTimeoutMs: 20_000 }, log) });
    const first = await tp.call("read", { path: "notes.txt" });
    expect(first.isError).toBe(false);
    // the default backoff retries after 1 s; that retry is now hanging in initialize
    await waitFor("the retry to start", () => spawnTimes(log).length >= 2);
    const second = await Promise.race([tp.call("read", { path: "notes.txt" }), sleep(3000)]);
    expect(second).not.toBe("stalled");
    expect(second).toMatchObject({ isError: false });
    const snapshot = await tp.toolSnapshot();
    expect(snapshot.problems.find((p) => p.provider === "mcp:stuck")?.reason).toMatch(
      /MCP server "stuck" is starting; its tools are left out until it is ready/,
    );
  });
});

describe("results larger than the stdio buffer", () => {
  it("a 12 MiB result goes through the host's limits: preview inline, the whole in a spill file", async () => {
    // resident: a server's tools are deferred by default, and these calls are about result limits
    const tp = await plane({
      big: fake("big", { defer: "never" }, undefined),
    });
    const result = await tp.call("mcp__big__big", { bytes: 12 * 1024 * 1024 });
    expect(result.error?.message).toBeUndefined();
    expect(result.isError).toBe(false);
    expect(result.truncated).toBe(true);
    expect(result.spillPath).toBeDefined();
    expect(statSync(result.spillPath as string).size).toBeGreaterThanOrEqual(12 * 1024 * 1024);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toMatch(/output too large to show inline/);
    expect(text.length).toBeLessThan(60_000);
  });

  it("a result over results.rawMaxBytes fails that call clearly; the session stays up", async () => {
    const tp = await plane({ big: fake("big", { defer: "never" }) }, ["results.rawMaxBytes=1000000"]);
    const small = await tp.call("mcp__big__small", {});
    expect(small.isError).toBe(false);
    const pid = tp.mcp?.provider("big")?.pid;
    expect(pid).toBeGreaterThan(0);
    const big = await tp.call("mcp__big__big", { bytes: 2_000_000 });
    expect(big.isError).toBe(true);
    expect(big.error?.message).toMatch(
      /MCP server "big": the server's answer was \d+ bytes, over results\.rawMaxBytes \(1000000 bytes\)/,
    );
    expect(big.error?.message).not.toMatch(/Connection closed/);
    const again = await tp.call("mcp__big__small", {});
    expect(again.isError).toBe(false);
    expect(again.content).toEqual([{ type: "text", text: "ok" }]);
    expect(tp.mcp?.provider("big")?.pid).toBe(pid);
  });
});

describe("content blocks toolplane does not know", () => {
  it("keeps the valid blocks around an unknown one, which becomes a short visible note", async () => {
    const { registry: reg } = registry({ blocks: fake("blocks") });
    const tool = (await reg.snapshot()).get("mcp__blocks__mixed")?.entry as AnyTool;
    const value = await tool.host.execute({}, ctx());
    expect(tool.validateOutput(value).ok).toBe(true);
    const rendered = tool.host.output.render(value) as { content: Array<{ type: string; text: string }> };
    expect(rendered.content).toEqual([
      { type: "text", text: "before" },
      { type: "text", text: '[content of type "hologram" that toolplane cannot show]' },
      { type: "text", text: "after" },
    ]);
    expect(JSON.stringify(rendered)).not.toContain("PPPP");
  });
});

describe("schemas with a $ref that cannot be resolved", () => {
  it("leaves the tool out with the reason in the snapshot's problems; the others stay usable", async () => {
    const { registry: reg } = registry({ refs: fake("refs") });
    const snapshot = await reg.snapshot();
    const names = snapshot.entries.map((e) => e.name);
    expect(names).toEqual(["mcp__refs__good_ref"]);
    const good = snapshot.get("mcp__refs__good_ref")?.entry as AnyTool;
    expect(good.validateInput({ p: "text" }).ok).toBe(true);
    expect(good.validateInput({ p: 1 }).ok).toBe(false);
    // left out as malformed entries: named, and the list stays complete (cached)
    expect(snapshot.incomplete).toBe(false);
    const problems = snapshot.problems.filter((p) => p.provider === "mcp:refs");
    expect(problems.map((p) => [p.outcome, p.entry])).toEqual([
      ["malformed", "bad_ref"],
      ["malformed", "remote_ref"],
    ]);
    expect(problems[0]?.reason).toMatch(
      /inputSchema: \$ref "#\/definitions\/Missing" points to nothing in the schema; the tool could never be called/,
    );
    expect(problems[1]?.reason).toMatch(/inputSchema: a \$ref cannot be resolved/);
  });
});

describe("a server that crashes right after it starts", () => {
  it("is respawned with exponential backoff up to the cap, not in a tight loop", async () => {
    const log = path.join(tempDir("tp-mcp-spawns-"), "spawns");
    const { registry: reg, logs } = registry(
      { loop: fake("crashloop", {}, log) },
      { initialMs: 300, maxMs: 600 },
    );
    await reg.snapshot();
    const times = await waitFor("five starts", () => {
      const t = spawnTimes(log);
      return t.length >= 5 && t;
    });
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    // the first loss reconnects at once; then 300 ms, 600 ms, and 600 ms again (the cap)
    expect(gaps[1]).toBeGreaterThanOrEqual(300);
    expect(gaps[2]).toBeGreaterThanOrEqual(600);
    expect(gaps[3]).toBeGreaterThanOrEqual(600);
    const delays = logs.flatMap((l) => /reconnecting in (\d+) ms/.exec(l)?.[1] ?? []).map(Number);
    expect(delays.slice(0, 3)).toEqual([300, 600, 600]);
  });
});
