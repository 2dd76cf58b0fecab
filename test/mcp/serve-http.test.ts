import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";
import { type ServeHttp, startServeHttp } from "./serve-process.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function start(args: string[] = [], env: Record<string, string> = {}) {
  const p = tempProject({ "notes.txt": "private notes\n" });
  const server = await startServeHttp(
    p.repo,
    { ...p.env, ...env },
    { args: ["--set", "tools.examples=false", ...args] },
  );
  cleanup.push(() => server.stop());
  return server;
}

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request to the server (node:http, so Host and Origin can be set freely). */
function raw(
  server: ServeHttp,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Raw> {
  const target = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: target.port,
        path: target.pathname,
        method: options.method ?? "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...options.headers,
        },
      },
      (res) => {
        let body = "";
        res.on("data", (c: Buffer) => {
          body += c.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const PING = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });
const READ = JSON.stringify({
  jsonrpc: "2.0",
  id: 3,
  method: "tools/call",
  params: { name: "read", arguments: { path: "notes.txt" } },
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function sdkClient(server: ServeHttp, token: string) {
  const client = new Client({ name: "test", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: bearer(token) } }),
  );
  cleanup.push(() => client.close());
  return client;
}

describe("toolplane serve --http: authentication", () => {
  it("requires the bearer token it generated and printed; without it nothing runs", async () => {
    const server = await start();
    const token = server.printedToken as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const anonymous = await raw(server, { body: INIT });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(anonymous.body).toMatch(/missing or wrong bearer token/);
    expect((await raw(server, { body: READ })).status).toBe(401);
    expect((await raw(server, { body: INIT, headers: bearer(`${token}x`) })).status).toBe(401);
    const client = await sdkClient(server, token);
    const read = await client.callTool({ name: "read", arguments: { path: "notes.txt" } });
    expect(JSON.stringify(read.content)).toContain("private notes");
  });

  it("takes the token from TOOLPLANE_SERVE_TOKEN or --token, and refuses a short one", async () => {
    const token = "from-the-environment-0123456789";
    const server = await start([], { TOOLPLANE_SERVE_TOKEN: token });
    expect(server.printedToken).toBeUndefined();
    expect(server.stderr()).not.toContain(token);
    expect((await raw(server, { body: INIT, headers: bearer(token) })).status).toBe(200);
    const p = tempProject();
    const short = runCli(["serve", "--http", "0", "--token", "short"], { cwd: p.repo, env: p.env });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/--token: a token needs at least 16 characters/);
    const stdio = runCli(["serve", "--no-auth"], { cwd: p.repo, env: p.env });
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toMatch(/--token and --no-auth apply to --http only/);
  });

  it("--no-auth serves without a token, after a loud warning", async () => {
    const server = await start(["--no-auth"]);
    expect(server.stderr()).toMatch(/WARNING: --no-auth: .*every local user and process/i);
    expect((await raw(server, { body: INIT })).status).toBe(200);
  });

  it("still refuses a foreign Host or Origin, token or not", async () => {
    const server = await start();
    const token = server.printedToken as string;
    const port = new URL(server.url).port;
    const host = await raw(server, { body: INIT, headers: { ...bearer(token), host: "evil.example" } });
    expect(host.status).toBe(403);
    const origin = await raw(server, {
      body: INIT,
      headers: { ...bearer(token), host: `127.0.0.1:${port}`, origin: "http://evil.example" },
    });
    expect(origin.status).toBe(403);
  });
});

describe("toolplane serve --http: bounded requests and sessions", () => {
  it("refuses a request body over serve.maxRequestBytes without reading it, and keeps serving", async () => {
    const server = await start(["--set", "serve.maxRequestBytes=65536"]);
    const token = server.printedToken as string;
    const declared = await raw(server, {
      body: Buffer.alloc(70_000, 0x20),
      headers: bearer(token),
    });
    expect(declared.status).toBe(413);
    expect(declared.body).toMatch(/over 65536 bytes \(serve\.maxRequestBytes\)/);
    // no Content-Length: the cap holds while the body streams in
    const streamed = await new Promise<number | string>((resolve) => {
      const target = new URL(server.url);
      const req = request(
        {
          host: "127.0.0.1",
          port: target.port,
          path: "/mcp",
          method: "POST",
          headers: { ...bearer(token), "content-type": "application/json", "transfer-encoding": "chunked" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? "error"));
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 8 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        req.end();
      };
      pump();
    });
    expect([413, "ECONNRESET", "EPIPE"]).toContain(streamed);
    const client = await sdkClient(server, token);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("read");
  });

  it("caps the sessions (closing the longest-idle) and expires idle ones", async () => {
    const server = await start(["--set", "serve.maxSessions=2", "--set", "serve.sessionIdleMs=1000"]);
    const token = server.printedToken as string;
    const open = async () => {
      const r = await raw(server, { body: INIT, headers: bearer(token) });
      expect(r.status).toBe(200);
      return r.headers["mcp-session-id"] as string;
    };
    const ping = async (session: string) =>
      (
        await raw(server, {
          body: PING,
          headers: { ...bearer(token), "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" },
        })
      ).status;
    const a = await open();
    const b = await open();
    expect(await ping(a)).toBe(200); // a is now the most recently used
    const c = await open(); // full: b, the longest idle, is closed
    expect(await ping(b)).toBe(404);
    expect(await ping(a)).toBe(200);
    expect(await ping(c)).toBe(200);
    expect(server.stderr()).toMatch(/2 sessions \(serve\.maxSessions\): closing the longest-idle one/);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await ping(a)).toBe(404);
    expect(await ping(c)).toBe(404);
  });
});
