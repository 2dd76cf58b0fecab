// The Claude Agent SDK adapter: the config `createSdkMcpServer` returned, its McpServer instance
// driven by the MCP SDK's own client over an in-memory transport (how the Agent SDK connects an
// in-process server), with deferral on and off, and a permission denial.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { claudeAgentSdkServer } from "../../src/adapters/claude-agent-sdk.js";
import { Toolplane } from "../../src/assemble/index.js";
import type { ToolResult } from "../../src/execute/index.js";
import { tempProject } from "../helpers/tmp.js";

const DEFER_TICKETS = 'defer.tools={"ticket_status":"always"}';
const STATUS = { ticket_id: "T-1001" };
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function connect(set: string[], options: Parameters<typeof claudeAgentSdkServer>[1] = {}) {
  const p = tempProject();
  const plane = await Toolplane.open({ cwd: p.repo, env: p.env, set, bundledSkills: null });
  closing.push(() => plane.close());
  const results: ToolResult[] = [];
  const server = await claudeAgentSdkServer(plane, { onResult: (r) => results.push(r), ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.instance.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  const changed: number[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    changed.push(Date.now());
  });
  await client.connect(clientSide);
  closing.push(() => client.close());
  const names = async () => (await client.listTools()).tools.map((t) => t.name);
  const call = async (name: string, args: object) => {
    const r = await client.callTool({ name, arguments: args as Record<string, unknown> });
    return {
      text: (r.content as Array<{ text?: string }>).map((b) => b.text ?? "").join("\n"),
      isError: r.isError,
      structured: r.structuredContent,
    };
  };
  return { server, client, names, call, results, changed, plane };
}

describe("claudeAgentSdkServer", () => {
  it("is the SDK's own server config: type sdk, its name, an McpServer instance", async () => {
    const { server } = await connect([], { name: "tickets" });
    expect(server.type).toBe("sdk");
    expect(server.name).toBe("tickets");
    expect(typeof server.instance.connect).toBe("function");
  });

  it("deferral on: a call before the search is told to search; tool_search loads, list_changed, the call runs", async () => {
    const c = await connect([DEFER_TICKETS]);
    const first = await c.names();
    expect(first).toContain("tool_search");
    expect(first).not.toContain("ticket_status");
    const early = await c.call("ticket_status", STATUS);
    expect(early.isError).toBe(true);
    expect(early.text).toMatch(/ticket_status is not available here: it is deferred.*tool_search first/);
    const search = await c.call("tool_search", { query: "ticket status lookup" });
    // the tool is listed from the next tools/list on, and the text says so
    expect(search.text).toMatch(
      /^Matching tools, best first \(callable from the next turn\):\n- ticket_status \(/,
    );
    expect(search.text).toContain("\nLoaded now: ticket_status");
    await expect.poll(() => c.changed.length).toBeGreaterThan(0);
    // the found tool is appended after the ones listed before
    expect(await c.names()).toEqual([...first, "ticket_status"]);
    const listed = (await c.client.listTools()).tools;
    expect(listed.every((t) => (t._meta as Record<string, unknown>)?.["anthropic/alwaysLoad"] === true)).toBe(
      true,
    );
    // no outputSchema, so no structuredContent: Claude Code would show the model that, not the text
    expect(listed.some((t) => t.outputSchema !== undefined)).toBe(false);
    const answer = await c.call("ticket_status", STATUS);
    expect(answer.isError).toBe(false);
    expect(answer.structured).toBeUndefined();
    expect(answer.text).toContain("status: in_progress");
    expect(c.results.at(-1)).toMatchObject({ tool: "ticket_status", isError: false });
  });

  it("deferral off: the tool is listed from the start, no tool_search, no alwaysLoad mark", async () => {
    const c = await connect([DEFER_TICKETS, "defer.mode=off"]);
    const listed = (await c.client.listTools()).tools;
    expect(listed.map((t) => t.name)).toContain("ticket_status");
    expect(listed.map((t) => t.name)).not.toContain("tool_search");
    expect(listed.some((t) => t._meta !== undefined)).toBe(false);
    expect((await c.call("ticket_status", STATUS)).text).toContain("status: in_progress");
  });

  it("a permission rule denies the call inside the host; the client reads why", async () => {
    const c = await connect([
      'permissions.rules=[{"effect":"deny","param":{"pointer":"/ticket_id","glob":"INC-*"}}]',
    ]);
    const denied = await c.call("ticket_status", { ticket_id: "INC-7" });
    expect(denied.isError).toBe(true);
    expect(denied.text).toMatch(/denied/);
    expect(c.results[0]).toMatchObject({ isError: true, error: { code: "permission_denied" } });
  });
});
