// `toolplane serve --http --endpoint NAME=SCOPE`: one process serves a scope chain per endpoint,
// with one copy of each MCP server; a session stays on the endpoint it was opened on.
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempDir, tempProject } from "../helpers/tmp.js";
import { fake, spawnTimes, waitFor } from "./peers.js";
import { startServeHttp } from "./serve-process.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe("toolplane serve --http --endpoint", () => {
  it("serves each scope chain at /mcp/NAME from one process and one MCP server", async () => {
    const log = path.join(tempDir("tp-endpoints-"), "spawns");
    const config = {
      mcp: { servers: { guide: fake("instructed", {}, log) } },
      defer: { mode: "off" },
      scopes: { restrictions: { "agent:reviewer": { deny: ["write", "edit", "bash"] } } },
    };
    const p = tempProject({ ".toolplane/config.json": JSON.stringify(config) }, { trust: true });
    const server = await startServeHttp(p.repo, p.env, {
      args: ["--endpoint", "reviewer=s1>agent:reviewer", "--endpoint", "writer=s1>agent:writer"],
    });
    cleanup.push(() => server.stop());
    const token = server.printedToken as string;
    // printed right after the token line, which may arrive in an earlier chunk
    await waitFor("the endpoint lines", () =>
      server.stderr().includes(`scope "s1>agent:writer" on ${server.url}/writer`),
    );
    expect(server.stderr()).toContain(`scope "s1>agent:reviewer" on ${server.url}/reviewer`);
    const connect = async (url: string) => {
      const client = new Client({ name: "test", version: "1" });
      const transport = new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      });
      await client.connect(transport);
      cleanup.push(() => client.close());
      return { client, transport };
    };
    const reviewer = await connect(`${server.url}/reviewer`);
    const writer = await connect(`${server.url}/writer`);
    const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);
    expect(await names(reviewer.client)).not.toContain("write");
    expect(await names(reviewer.client)).toContain("read");
    expect(await names(writer.client)).toContain("write");
    for (const c of [reviewer.client, writer.client]) {
      expect(await names(c)).toContain("mcp__guide__small");
      const r = await c.callTool({ name: "mcp__guide__small", arguments: {} });
      expect(r.isError).toBeFalsy();
    }
    const denied = await reviewer.client.callTool({
      name: "write",
      arguments: { file_path: "x", content: "x" },
    });
    expect(denied.isError).toBe(true);
    expect(spawnTimes(log)).toHaveLength(1);

    // a session opened on /mcp/reviewer is not the writer's
    const res = await fetch(`${server.url}/writer`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": reviewer.transport.sessionId as string,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
    });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("it was opened on /mcp/reviewer");
    // an unknown endpoint names the ones there are
    const unknown = await fetch(`${server.url}/nobody`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("/mcp/reviewer");
  });

  it("--endpoint is refused without --http, and a bad name says what to give", () => {
    const p = tempProject();
    const stdio = runCli(["serve", "--endpoint", "a=b"], { cwd: p.repo, env: p.env });
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toContain("--endpoint needs --http");
    const bad = runCli(["serve", "--http", "0", "--endpoint", "a/b=x"], { cwd: p.repo, env: p.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("give NAME=SCOPE");
  });
});
