import { afterEach, describe, expect, it } from "vitest";
import type { AnyTool } from "../../src/declare/types.js";
import { type McpClients, registerMcpServers } from "../../src/mcp/index.js";
import { Registry } from "../../src/register/index.js";
import { tempDir, writeTree } from "../helpers/tmp.js";
import { ctx, EVERYTHING, fake, filesystem, until } from "./peers.js";

// real peers get the default start timeout: a loaded CI machine can take seconds to start Node
const fast = { startTimeoutMs: 8_000 };
let open: McpClients[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
});

function setup(
  servers: Parameters<typeof registerMcpServers>[1],
  backoff = { initialMs: 200, maxMs: 1_000 },
) {
  const registry = new Registry<AnyTool>({ kind: "tool" });
  const logs: string[] = [];
  const clients = registerMcpServers(registry, servers, {
    log: (line) => logs.push(line),
    backoff,
  });
  open.push(clients);
  return { registry, clients, logs };
}

describe("MCP client against server-everything", () => {
  it("lists tools under qualified names and calls echo by its raw name", async () => {
    const { registry } = setup({ everything: { ...EVERYTHING, ...fast } });
    const snapshot = await registry.snapshot();
    expect(snapshot.problems).toEqual([]);
    const names = snapshot.entries.map((e) => e.name);
    expect(names).toContain("mcp__everything__echo");
    expect(names).toContain("mcp__everything__get-sum");
    expect(names.every((n) => /^mcp__everything__[A-Za-z0-9_-]+$/.test(n) && n.length <= 64)).toBe(true);
    const echo = snapshot.get("mcp__everything__echo");
    expect(echo?.provider).toBe("mcp:everything");
    expect(echo?.namespace).toBe("mcp:everything");
    const tool = echo?.entry as AnyTool;
    expect(tool.parameters).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    const input = tool.validateInput({ message: "hi" });
    expect(input.ok).toBe(true);
    expect(tool.validateInput({ message: 3 }).ok).toBe(false);
    const value = await tool.host.execute({ message: "hi" }, ctx());
    expect(tool.validateOutput(value).ok).toBe(true);
    expect(tool.host.output.render(value)).toEqual({ content: [{ type: "text", text: "Echo: hi" }] });
  });

  it("honours outputSchema: structuredContent is part of the canonical value and is checked", async () => {
    const { registry } = setup({ everything: { ...EVERYTHING, ...fast } });
    const tool = (await registry.snapshot()).get("mcp__everything__get-structured-content")?.entry as AnyTool;
    const value = await tool.host.execute({ location: "Chicago" }, ctx());
    expect(value.structuredContent).toMatchObject({ temperature: expect.any(Number) });
    expect(tool.validateOutput(value).ok).toBe(true);
    expect(tool.validateOutput({ content: [], structuredContent: { temperature: "hot" } }).ok).toBe(false);
  });

  it("annotations are untrusted by default and trusted only when the config says so", async () => {
    const { registry } = setup({
      plain: { ...EVERYTHING, ...fast },
      trusted: { ...EVERYTHING, ...fast, trusted: true },
    });
    const snapshot = await registry.snapshot();
    expect(snapshot.problems).toEqual([]);
    const plain = snapshot.get("mcp__plain__echo")?.entry as AnyTool;
    const trusted = snapshot.get("mcp__trusted__echo")?.entry as AnyTool;
    expect(plain.host.concurrencySafe).toBe(false);
    expect(plain.host.permission?.action).toBe("mcp:call");
    expect(trusted.host.concurrencySafe).toBe(true);
    expect(trusted.host.permission?.action).toBe("mcp:read");
    expect(trusted.host.permission?.patterns?.({})).toEqual(["mcp__trusted__echo"]);
    expect(trusted.host.namespace).toBe("mcp:trusted");
  });

  it("re-lists after notifications/tools/list_changed and the registry is invalidated", async () => {
    const { registry } = setup({ paged: fake("paged") });
    const first = await registry.snapshot();
    // three pages of two tools each, all followed through nextCursor
    // sorted by name, whatever order the server listed them in
    expect(first.entries.map((e) => e.name)).toEqual([
      "mcp__paged__add",
      expect.stringMatching(/^mcp__paged__has_dot_[0-9a-f]{6}$/),
      expect.stringMatching(/^mcp__paged__has_dot_[0-9a-f]{6}$/),
      "mcp__paged__p1",
      "mcp__paged__p2",
      "mcp__paged__p3",
    ]);
    let invalidated = 0;
    registry.on("invalidated", () => invalidated++);
    const add = first.get("mcp__paged__add")?.entry as AnyTool;
    await add.host.execute({}, ctx());
    const names = await until(registry, (n) => n.includes("mcp__paged__added_6") && n);
    expect(names).toHaveLength(7);
    expect(invalidated).toBeGreaterThan(0);
    // a tool the new list repeats unchanged keeps its object (and so its memoised render)
    const after = await registry.snapshot();
    expect(after.get("mcp__paged__p1")?.entry).toBe(first.get("mcp__paged__p1")?.entry);
  });
});

describe("MCP client against server-filesystem", () => {
  it("lists and calls read_text_file under the allowed directory", async () => {
    const dir = writeTree(tempDir("tp-mcp-fs-"), { "note.txt": "hello from disk\n" });
    const { registry } = setup({ fs: { ...filesystem(dir), ...fast } });
    const snapshot = await registry.snapshot();
    expect(snapshot.problems).toEqual([]);
    const tool = snapshot.get("mcp__fs__read_text_file")?.entry as AnyTool;
    expect(tool).toBeDefined();
    const value = await tool.host.execute({ path: `${dir}/note.txt` }, ctx());
    expect(JSON.stringify(tool.host.output.render(value))).toContain("hello from disk");
    await expect(tool.host.execute({ path: "/etc/passwd" }, ctx())).rejects.toThrow(
      /denied|outside|not allowed/i,
    );
  });
});

describe("MCP client: crash and reconnect", () => {
  it("a killed server comes back and its tools with it", async () => {
    const { registry, clients } = setup({ everything: { ...EVERYTHING, ...fast } });
    await registry.snapshot();
    const provider = clients.provider("everything");
    const pid = provider?.pid;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid as number, "SIGKILL");
    await until(registry, () => provider?.pid !== null && provider?.pid !== pid);
    const snapshot = await until(registry, (n) => n.includes("mcp__everything__echo"));
    expect(snapshot).toBeTruthy();
    const echo = (await registry.snapshot()).get("mcp__everything__echo")?.entry as AnyTool;
    const value = await echo.host.execute({ message: "again" }, ctx());
    expect(echo.host.output.render(value)).toEqual({ content: [{ type: "text", text: "Echo: again" }] });
  });
});

describe("MCP client: bad peers", () => {
  it("garbage on stdout, a silent server and invalid schemas each give a clear problem; others stay", async () => {
    const { registry, logs } = setup(
      {
        everything: { ...EVERYTHING, ...fast },
        garbage: fake("garbage", { startTimeoutMs: 800 }),
        silent: fake("silent", { startTimeoutMs: 800 }),
        invalid: fake("invalid"),
        missing: { command: "/nonexistent/toolplane-no-such-server", startTimeoutMs: 800 },
        crashy: {
          command: process.execPath,
          args: ["-e", "console.error('boom: no API key'); process.exit(3)"],
          startTimeoutMs: 8000,
        },
      },
      // long enough that the second read below is surely inside the backoff window
      { initialMs: 60_000, maxMs: 60_000 },
    );
    const snapshot = await registry.snapshot();
    const names = snapshot.entries.map((e) => e.name);
    expect(names).toContain("mcp__everything__echo");
    expect(names).toContain("mcp__invalid__good");
    expect(names.filter((n) => n.startsWith("mcp__invalid__"))).toEqual(["mcp__invalid__good"]);
    expect(snapshot.incomplete).toBe(true);
    const problem = (p: string) => snapshot.problems.find((x) => x.provider === `mcp:${p}`);
    expect(problem("garbage")).toMatchObject({ outcome: "rejected" });
    expect(problem("garbage")?.reason).toMatch(/did not finish initialize within 800 ms/);
    expect(problem("garbage")?.reason).not.toMatch(/cancellation/);
    expect(problem("garbage")?.reason).toMatch(/not valid JSON|Unexpected token/);
    expect(problem("silent")?.reason).toMatch(
      /MCP server "silent" .* failed to start: did not finish initialize/,
    );
    expect(problem("missing")?.reason).toMatch(/MCP server "missing" .* failed to start: .*ENOENT/);
    expect(problem("crashy")?.reason).toMatch(
      /failed to start: .*Connection closed .*stderr: boom: no API key/,
    );
    // unusable tools are malformed entries of a server that is otherwise fine, one problem each
    const invalid = snapshot.problems.filter((x) => x.provider === "mcp:invalid");
    const reasonOf = (entry: string) =>
      invalid.find((x) => x.entry === entry && x.outcome === "malformed")?.reason;
    expect(reasonOf("bad_type")).toMatch(/inputSchema is not valid JSON Schema/);
    expect(reasonOf("no_schema")).toMatch(/inputSchema must be a JSON Schema object/);
    expect(reasonOf("not_object")).toMatch(/inputSchema must have "type": "object"/);
    expect(logs.some((l) => /retrying in \d+ ms/.test(l))).toBe(true);
    // a second read inside the backoff window says when the next retry is
    const again = await registry.snapshot();
    expect(again.problems.find((x) => x.provider === "mcp:silent")?.reason).toMatch(/next retry in/);
  });
});
