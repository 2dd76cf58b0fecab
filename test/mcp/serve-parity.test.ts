// What `toolplane serve` lists is what `toolplane catalog --provider mcp` prints, byte for byte,
// read through the SDK client; results carry structuredContent where tools/list gave an
// outputSchema; and each HTTP client is a session of its own.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { CLI, runJson } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";
import { startServeHttp } from "./serve-process.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const DEFER_TICKETS = 'defer.tools={"ticket_status":"always"}';

async function stdioClient(repo: string, env: NodeJS.ProcessEnv, set: string[]) {
  const client = new Client({ name: "parity", version: "1" });
  const args = [CLI, "serve", "--cwd", repo, ...set.flatMap((s) => ["--set", s])];
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args,
      env: env as Record<string, string>,
      stderr: "pipe",
    }),
  );
  cleanup.push(() => client.close());
  return client;
}

/** tools/list as the server sent it: the entries are not parsed into the SDK's own shape. */
async function rawToolsList(client: Client): Promise<unknown[]> {
  const result = await client.request(
    { method: "tools/list", params: {} },
    z.object({ tools: z.array(z.unknown()) }).passthrough(),
  );
  return result.tools;
}

const text = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content ?? []).map((b) => b.text ?? "").join("\n");

describe("serve lists what catalog --provider mcp prints", () => {
  it.each([
    ["deferral off", ["defer.mode=off"]],
    ["ticket_status deferred", [DEFER_TICKETS]],
  ])("the same bytes, read through the SDK client (%s)", async (_case, set) => {
    const p = tempProject({ "notes.txt": "one\n" });
    const catalog = runJson(["catalog", "--provider", "mcp", ...set.flatMap((s) => ["--set", s])], {
      cwd: p.repo,
      env: p.env,
    });
    const client = await stdioClient(p.repo, p.env, set);
    const listed = await rawToolsList(client);
    expect(JSON.stringify(listed)).toBe(JSON.stringify(catalog.tools));
    const names = listed.map((t) => (t as { name: string }).name);
    if (set.includes(DEFER_TICKETS)) {
      expect(names).toContain("tool_search");
      expect(names).not.toContain("ticket_status");
    } else expect(names).toContain("ticket_status");
    // the SDK client's own parse of the same list agrees
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(names);
  });

  it("output schemas, structuredContent the SDK client validates, and the built-ins' annotations", async () => {
    const p = tempProject({ "notes.txt": "one\ntwo\n" });
    const client = await stdioClient(p.repo, p.env, []);
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ["read", "grep", "glob", "edit", "write", "bash", "ticket_status"]) {
      const tool = byName.get(name);
      expect(tool?.outputSchema, `${name} lists an output schema`).toMatchObject({ type: "object" });
      expect(tool?.annotations?.title, `${name} has a title`).toEqual(expect.any(String));
    }
    for (const name of ["read", "grep", "glob"])
      expect(byName.get(name)?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(byName.get("write")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get("edit")?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: false });
    expect(byName.get("bash")?.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    // the display title is the name a client shows people; the description the model reads is apart
    expect(byName.get("glob")?.title).toBe("Find files");
    expect(byName.get("ticket_status")?.title).toBe("Ticket status");
    expect(byName.get("glob")?.description).not.toContain(
      "Find files by name with a glob pattern. Find files",
    );
    // callTool validates structuredContent against the listed outputSchema: a mismatch would throw
    const ticket = await client.callTool({ name: "ticket_status", arguments: { ticket_id: "T-1002" } });
    expect(ticket.structuredContent).toEqual({
      status: "resolved",
      summary: "Export to CSV drops the last row",
    });
    const read = await client.callTool({ name: "read", arguments: { path: "notes.txt" } });
    expect(read.isError).toBe(false);
    expect(read.structuredContent).toEqual(expect.any(Object));
    expect(text(read)).toContain("two");
    // an error carries no structuredContent
    const bad = await client.callTool({ name: "read", arguments: { path: "missing.txt" } });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toBeUndefined();
  });
});

describe("serve --http: one session state per MCP session", () => {
  async function httpClient(url: string, token: string) {
    const client = new Client({ name: "session", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    cleanup.push(() => client.close());
    return client;
  }

  it("a tool one client loads and a file it read are its own", async () => {
    const p = tempProject({ "notes.txt": "alpha\n" });
    const token = "t".repeat(40);
    const server = await startServeHttp(p.repo, p.env, {
      args: ["--token", token, "--yes", "--set", DEFER_TICKETS],
    });
    cleanup.push(() => server.stop());
    const a = await httpClient(server.url, token);
    const b = await httpClient(server.url, token);
    const changed = { a: 0, b: 0 };
    a.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed.a++;
    });
    b.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed.b++;
    });
    const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);
    expect(await names(a)).not.toContain("ticket_status");
    expect(await names(b)).not.toContain("ticket_status");

    const found = await a.callTool({ name: "tool_search", arguments: { query: "ticket status" } });
    expect(text(found)).toContain("Loaded now: ticket_status");
    expect(await names(a)).toContain("ticket_status");
    expect((await a.callTool({ name: "ticket_status", arguments: { ticket_id: "T-1001" } })).isError).toBe(
      false,
    );
    // b loaded nothing: the tool is not in its list and a call is told to search first
    expect(await names(b)).not.toContain("ticket_status");
    const early = await b.callTool({ name: "ticket_status", arguments: { ticket_id: "T-1001" } });
    expect(early.isError).toBe(true);
    expect(text(early)).toMatch(/call tool_search first/);
    for (let i = 0; i < 100 && changed.a === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(changed.a).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(changed.b).toBe(0);

    // files read: a read notes.txt and may edit it; b did not, and is told to read it first
    expect((await a.callTool({ name: "read", arguments: { path: "notes.txt" } })).isError).toBe(false);
    const edit = { path: "notes.txt", oldString: "alpha", newString: "beta" };
    const byB = await b.callTool({ name: "edit", arguments: edit });
    expect(byB.isError).toBe(true);
    expect(text(byB)).toMatch(/has not been read in this session: read it first/);
    const byA = await a.callTool({ name: "edit", arguments: edit });
    expect(byA.isError, text(byA)).toBe(false);
  });
});
