import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { defineTool } from "../../src/declare/index.js";
import type { AnyTool } from "../../src/declare/types.js";
import { ExecutionHost, SpillStore } from "../../src/execute/index.js";
import { registerMcpServers } from "../../src/mcp/index.js";
import { createToolServer, type PromptSource } from "../../src/mcp/server/index.js";
import { policyFromConfig } from "../../src/permissions/index.js";
import { GLOBAL_LAYER, Registry } from "../../src/register/index.js";
import { CLI } from "../helpers/cli.js";
import { findLeaks, publishedHostKeys } from "../helpers/leak.js";
import { tempDir, tempProject } from "../helpers/tmp.js";
import { sentinelTool, simpleTool } from "../helpers/tools.js";
import { ctx, EVERYTHING, fake, until } from "./peers.js";
import { startServeHttp } from "./serve-process.js";

const cleanup: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

function project(servers: Record<string, unknown> = {}) {
  return tempProject({ ".toolplane/config.json": JSON.stringify({ mcp: { servers } }) }, { trust: true });
}

async function stdioClient(args: string[], p: ReturnType<typeof project>) {
  const client = new Client({ name: "test", version: "1" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve", "--cwd", p.repo, ...args],
    env: p.env as Record<string, string>,
    stderr: "pipe",
  });
  await client.connect(transport);
  cleanup.push(() => client.close());
  return client;
}

const text = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content ?? []).map((b) => b.text ?? "").join("\n");

describe("toolplane serve over stdio, driven by the SDK client", () => {
  it("lists the scope's tools as projections only and calls them, proxied MCP tools included", async () => {
    // resident on purpose (a server's tools are deferred by default): this is about proxying
    const p = project({ everything: { ...EVERYTHING, startTimeoutMs: 8000, defer: "never" } });
    const client = await stdioClient([], p);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain("ticket_status");
    expect(names).toContain("mcp__everything__echo");
    for (const tool of tools) {
      // the projection, the output schema and the declared hints: nothing else of a tool
      for (const key of Object.keys(tool))
        expect(["name", "title", "description", "inputSchema", "outputSchema", "annotations"]).toContain(key);
      expect(findLeaks(tool, [], publishedHostKeys("mcp"))).toEqual([]);
    }
    const ok = await client.callTool({ name: "ticket_status", arguments: { ticket_id: "T-1001" } });
    expect(ok.isError).toBe(false);
    expect(text(ok)).toMatch(/^status: in_progress\nsummary: Login page returns 500/);
    const echo = await client.callTool({ name: "mcp__everything__echo", arguments: { message: "hi" } });
    expect(text(echo)).toBe("Echo: hi");
    const bad = await client.callTool({ name: "ticket_status", arguments: { ticket: 1 } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/invalid arguments for ticket_status:[\s\S]*\n\/ticket_id: is required/);
    const unknown = await client.callTool({ name: "nope", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/no tool named "nope"/);
  });

  it("lets an SDK client list the built-in tools and call read, through the host's permissions", async () => {
    const p = tempProject({ "notes.txt": "first line\nsecond line\n", ".env": "SECRET=1\n" });
    const client = await stdioClient([], p);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["read", "grep", "glob", "skill"]));
    const read = await client.callTool({ name: "read", arguments: { path: "notes.txt" } });
    expect(read.isError).toBe(false);
    expect(text(read)).toMatch(/first line[\s\S]*second line/);
    // the workspace boundary and the .env ask hold over MCP too (no --yes: an ask is denied)
    const outside = await client.callTool({ name: "read", arguments: { path: "/etc/passwd" } });
    expect(outside.isError).toBe(true);
    const secret = await client.callTool({ name: "read", arguments: { path: ".env" } });
    expect(secret.isError).toBe(true);
    expect(text(secret)).not.toContain("SECRET=1");
  });

  it("passes an upstream tools/list_changed on to its own client", async () => {
    const p = project({ paged: fake("paged", { defer: "never" }) });
    const client = await stdioClient([], p);
    let notified = 0;
    const seen = new Promise<void>((resolve) => {
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        notified++;
        resolve();
      });
    });
    const before = (await client.listTools()).tools.map((t) => t.name);
    expect(before).not.toContain("mcp__paged__added_6");
    await client.callTool({ name: "mcp__paged__add", arguments: {} });
    await seen;
    const after = (await client.listTools()).tools.map((t) => t.name);
    expect(after).toContain("mcp__paged__added_6");
    expect(notified).toBeGreaterThanOrEqual(1);
  });
});

const TOKEN = "test-token-0123456789abcdef";
const AUTH = { Authorization: `Bearer ${TOKEN}` };

describe("toolplane serve --http", () => {
  async function startHttp(p: ReturnType<typeof project>, port = 0) {
    const server = await startServeHttp(p.repo, { ...p.env, TOOLPLANE_SERVE_TOKEN: TOKEN }, { port });
    cleanup.push(() => server.stop());
    return server;
  }

  it("serves the SDK client over Streamable HTTP on 127.0.0.1", async () => {
    const p = project();
    const { url } = await startHttp(p);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: "test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: AUTH } }));
    cleanup.push(() => client.close());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("ticket_status");
    const result = await client.callTool({
      name: "ticket_status",
      arguments: { ticket_id: "T-1001", include_history: true },
    });
    expect(text(result)).toMatch(/history:\n- 2026-11-20T09:12:00Z open: reported by support/);
  });

  it("is itself usable as an MCP server by toolplane's client over Streamable HTTP", async () => {
    const { url } = await startHttp(project());
    const registry = new Registry<AnyTool>({ kind: "tool" });
    const clients = registerMcpServers(registry, { remote: { url, headers: AUTH, startTimeoutMs: 8000 } });
    cleanup.push(() => clients.close());
    const snapshot = await registry.snapshot();
    expect(snapshot.problems).toEqual([]);
    const tool = snapshot.get("mcp__remote__ticket_status")?.entry as AnyTool;
    const value = await tool.host.execute({ ticket_id: "T-1001" }, ctx());
    expect(text(tool.host.output.render(value))).toMatch(/^status: in_progress/);
  });

  it("an HTTP server that dies and comes back on the same address: the client reconnects", async () => {
    const p = project();
    const first = await startHttp(p);
    const registry = new Registry<AnyTool>({ kind: "tool" });
    const clients = registerMcpServers(
      registry,
      { remote: { url: first.url, headers: AUTH, startTimeoutMs: 8000 } },
      { backoff: { initialMs: 100, maxMs: 400 } },
    );
    cleanup.push(() => clients.close());
    const tool = (await registry.snapshot()).get("mcp__remote__ticket_status")?.entry as AnyTool;
    await new Promise<void>((resolve) => {
      first.child.once("exit", () => resolve());
      first.child.kill("SIGKILL");
    });
    await expect(tool.host.execute({ ticket_id: "T-1001" }, ctx())).rejects.toThrow();
    expect((await registry.snapshot()).get("mcp__remote__ticket_status")).toBeUndefined();
    await startHttp(p, Number(new URL(first.url).port));
    await until(registry, (names) => names.includes("mcp__remote__ticket_status"));
    const again = (await registry.snapshot()).get("mcp__remote__ticket_status")?.entry as AnyTool;
    const value = await again.host.execute({ ticket_id: "T-1001" }, ctx());
    expect(text(again.host.output.render(value))).toMatch(/^status: in_progress/);
  });

  it("refuses a foreign Host header (DNS rebinding)", async () => {
    const p = project();
    const { url } = await startHttp(p);
    const target = new URL(url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: target.port,
          path: "/mcp",
          method: "POST",
          headers: { host: "evil.example:80" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end("{}");
    });
    expect(status).toBe(403);
  });
});

describe("MCP server in process: list_changed and prompts", () => {
  async function connect(registry: Registry<AnyTool>, prompts: PromptSource[] = []) {
    const dir = tempDir("tp-mcp-host-");
    const config = loadConfig({ cwd: dir, env: { HOME: dir } });
    const host = new ExecutionHost({
      tools: async () => ({
        tools: (await registry.snapshot()).entries.map((e) => ({ tool: e.entry, namespace: e.namespace })),
      }),
      config: config.ofKind("run-time"),
      policy: policyFromConfig(config.values, dir),
      cwd: dir,
      workspace: dir,
      spill: new SpillStore(dir, "s"),
    });
    const hub = await createToolServer({
      tools: async () => (await registry.snapshot()).entries.map((e) => e.entry),
      run: (call, signal) => host.call(call, { signal }),
      prompts: () => prompts,
      subscribe: (listener) => registry.on("invalidated", listener),
      debounceMs: 20,
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await hub.open().connect(a);
    const client = new Client({ name: "test", version: "1" });
    await client.connect(b);
    cleanup.push(
      () => client.close(),
      () => hub.close(),
    );
    return { hub, client };
  }

  it("sends one debounced list_changed for a burst of changes, none for a change that changes nothing", async () => {
    const registry = new Registry<AnyTool>({ kind: "tool" });
    let tools: AnyTool[] = [simpleTool("alpha")];
    const handle = registry.register(GLOBAL_LAYER, { name: "p", enumerate: () => tools });
    const { hub, client } = await connect(registry);
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notified++;
    });
    handle.changed();
    await new Promise((r) => setTimeout(r, 60));
    await hub.idle();
    expect(notified).toBe(0);
    tools = [simpleTool("alpha"), simpleTool("beta")];
    handle.changed();
    handle.changed();
    handle.changed();
    await new Promise((r) => setTimeout(r, 60));
    await hub.idle();
    expect(notified).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["alpha", "beta"]);
  });

  it("never lets a host-only field into tools/list", async () => {
    const registry = new Registry<AnyTool>({ kind: "tool" });
    registry.register(GLOBAL_LAYER, { name: "p", enumerate: () => [sentinelTool()] });
    const { client } = await connect(registry);
    const listed = await client.listTools();
    expect(findLeaks(listed, ["HOST-ONLY-SENTINEL", 98_765], publishedHostKeys("mcp"))).toEqual([]);
    // published by design: the display title, and nothing else of the display part
    expect(listed.tools[0]?.title).toBe("HOST-ONLY-SENTINEL");
  });

  it("serves user-invocable skills as prompts, loading a body only when asked", async () => {
    const registry = new Registry<AnyTool>({ kind: "tool" });
    let loads = 0;
    const prompts: PromptSource[] = [
      {
        name: "review",
        description: "Review a diff",
        load: () => {
          loads++;
          return "Review the change carefully.";
        },
      },
      { name: "deploy", description: "Deploy the app", load: () => "Deploy it." },
    ];
    const { client } = await connect(registry, prompts);
    const listed = await client.listPrompts();
    expect(listed.prompts.map((p) => p.name)).toEqual(["deploy", "review"]);
    expect(loads).toBe(0);
    const got = await client.getPrompt({ name: "review", arguments: { arguments: "PR 42" } });
    expect(got.messages[0]?.content).toEqual({
      type: "text",
      text: "Review the change carefully.\n\nARGUMENTS: PR 42",
    });
    await expect(client.getPrompt({ name: "nope" })).rejects.toThrow(/no prompt named "nope"/);
  });

  it("times out a slow tool with a clear result instead of hanging", async () => {
    const registry = new Registry<AnyTool>({ kind: "tool" });
    const slow = defineTool({
      name: "slow",
      description: "never finishes",
      parameters: { type: "object", properties: {} },
      output: { schema: { type: "string" }, render: (v: string) => v },
      execute: () => new Promise<string>(() => {}),
      timeoutMs: 50,
    });
    registry.register(GLOBAL_LAYER, { name: "p", enumerate: () => [slow] });
    const { client } = await connect(registry);
    const result = await client.callTool({ name: "slow", arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/did not finish within 50 ms/);
  });
});
