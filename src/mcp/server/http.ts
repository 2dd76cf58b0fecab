import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { foreignRequest, listenOnLoopback, loopbackHosts } from "../../util/loopback.js";
import { loadServerSdk } from "../sdk.js";
import { bearerCheck } from "./http-auth.js";
import { readBody } from "./http-body.js";
import { HttpSessions } from "./http-sessions.js";
import type { SessionHub } from "./session.js";

export const MCP_PATH = "/mcp";

export interface HttpServeOptions {
  port: number;
  /** The bearer token every request must carry; null serves without authentication. */
  token: string | null;
  /** The largest request body read (serve.maxRequestBytes). */
  maxRequestBytes: number;
  /** Most sessions at once (serve.maxSessions). */
  maxSessions: number;
  /** A session idle this long is closed (serve.sessionIdleMs). */
  sessionIdleMs: number;
  /** More scope chains, each served at `/mcp/NAME` (the main hub is at `/mcp`). */
  endpoints?: ReadonlyMap<string, SessionHub>;
  log?: (line: string) => void;
}

export interface HttpHandle {
  url: string;
  port: number;
  /** Live sessions, for tests and benchmarks. */
  sessions(): number;
  close(): Promise<void>;
}

/**
 * Streamable HTTP on 127.0.0.1 only, one SDK session per client, following the MCP spec's
 * transport security guidance. In order, a request must:
 * - name this server in Host, and in Origin when it has one (DNS rebinding: 403);
 * - carry the bearer token (any local user, or a page that got past the Host check, would
 *   otherwise run tools with this process's rights: 401);
 * - have a body of at most maxRequestBytes (413), that is JSON (400).
 * Sessions are capped and expire when idle (HttpSessions).
 */
export async function serveHttp(hub: SessionHub, options: HttpServeOptions): Promise<HttpHandle> {
  const { isInitializeRequest, StreamableHTTPServerTransport } = await loadServerSdk();
  const sessions = new HttpSessions({
    maxSessions: options.maxSessions,
    idleMs: options.sessionIdleMs,
    ...(options.log ? { log: options.log } : {}),
  });
  const authorised = options.token === null ? () => true : bearerCheck(options.token);
  let allowedHosts: ReadonlySet<string> = new Set<string>();
  const hubs = new Map<string, SessionHub>([[MCP_PATH, hub]]);
  for (const [name, h] of options.endpoints ?? []) hubs.set(`${MCP_PATH}/${name}`, h);
  const hubAt = (pathname: string) => hubs.get(pathname);
  const paths = [...hubs.keys()];
  const pathOf = new Map<string, string>();
  const http = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) reply(res, 500, `internal error: ${(error as Error).message}`);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const served = hubAt(url.pathname);
    if (!served) return reply(res, 404, `not found: the MCP endpoints are ${paths.join(", ")}`);
    const foreign = foreignRequest(req.headers, allowedHosts);
    if (foreign) return reply(res, 403, foreign);
    if (!authorised(req.headers.authorization)) {
      res.setHeader("www-authenticate", 'Bearer realm="toolplane"');
      return reply(
        res,
        401,
        "missing or wrong bearer token: send 'Authorization: Bearer <token>' with the token `toolplane serve` printed on start (or gave with --token / TOOLPLANE_SERVE_TOKEN)",
      );
    }
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (typeof sessionId === "string" && !existing) {
      return reply(res, 404, "unknown session (it may have expired): start a new one with initialize");
    }
    // a session belongs to the endpoint (scope chain) it was opened on
    if (typeof sessionId === "string" && pathOf.get(sessionId) !== url.pathname) {
      return reply(res, 404, `unknown session on ${url.pathname}: it was opened on ${pathOf.get(sessionId)}`);
    }
    let body: unknown;
    if (req.method === "POST") {
      const read = await readBody(req, options.maxRequestBytes);
      if (!read.ok) {
        // the rest of the upload is never read: the connection closes once the answer is out
        res.setHeader("connection", "close");
        res.once("finish", () => req.socket.destroy());
        return reply(
          res,
          413,
          `request body over ${options.maxRequestBytes} bytes (serve.maxRequestBytes); nothing was run`,
        );
      }
      try {
        body = JSON.parse(read.text);
      } catch (error) {
        return reply(res, 400, `the request body is not JSON: ${(error as Error).message}`);
      }
    }
    if (existing && typeof sessionId === "string") {
      sessions.begin(sessionId);
      res.once("close", () => sessions.end(sessionId));
      return existing.handleRequest(req, res, body);
    }
    if (isInitializeRequest(body) && !sessions.makeRoom()) {
      return reply(
        res,
        503,
        `too many sessions (serve.maxSessions is ${options.maxSessions}) and every one is busy; try again later`,
      );
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id): void => {
        pathOf.set(id, url.pathname);
        sessions.add(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) {
        sessions.remove(transport.sessionId);
        pathOf.delete(transport.sessionId);
      }
    };
    await served.open().connect(transport);
    await transport.handleRequest(req, res, body);
    // a first request that was not initialize leaves no session behind
    if (!transport.sessionId) await transport.close();
  }

  const actual = await listenOnLoopback(http, options.port);
  allowedHosts = loopbackHosts(actual);
  return {
    url: `http://127.0.0.1:${actual}${MCP_PATH}`,
    port: actual,
    sessions: () => sessions.size,
    close: async () => {
      await sessions.closeAll();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}
