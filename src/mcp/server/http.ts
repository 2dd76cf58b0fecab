import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { SessionHub } from "./session.js";

export const MCP_PATH = "/mcp";

export interface HttpHandle {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Streamable HTTP on 127.0.0.1 only, one SDK session per client. Host and Origin are checked so a
 * web page cannot reach the server through DNS rebinding (the SDK's own check is deprecated in
 * favour of exactly this kind of front check).
 */
export async function serveHttp(hub: SessionHub, port: number): Promise<HttpHandle> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts = new Set<string>();
  const http = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) reply(res, 500, `internal error: ${(error as Error).message}`);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== MCP_PATH) return reply(res, 404, `not found: the MCP endpoint is ${MCP_PATH}`);
    if (!allowedHosts.has(req.headers.host ?? "")) return reply(res, 403, "forbidden host");
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedHosts.has(origin.replace(/^https?:\/\//, ""))) {
      return reply(res, 403, "forbidden origin");
    }
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
    if (typeof sessionId === "string" && !existing) {
      return reply(res, 404, "unknown session: start a new one with initialize");
    }
    const body = req.method === "POST" ? await readJson(req) : undefined;
    if (body instanceof Error) return reply(res, 400, `the request body is not JSON: ${body.message}`);
    if (existing) return existing.handleRequest(req, res, body);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
    };
    await hub.open().connect(transport);
    await transport.handleRequest(req, res, body);
    // a first request that was not initialize leaves no session behind
    if (!transport.sessionId) await transport.close();
  }

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, "127.0.0.1", () => resolve());
  });
  const actual = (http.address() as AddressInfo).port;
  allowedHosts = new Set([`127.0.0.1:${actual}`, `localhost:${actual}`]);
  return {
    url: `http://127.0.0.1:${actual}${MCP_PATH}`,
    port: actual,
    close: async () => {
      await Promise.all([...transports.values()].map((t) => t.close().catch(() => {})));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (error) {
    return error as Error;
  }
}
