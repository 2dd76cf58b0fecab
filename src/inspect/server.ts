import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { secretCheck } from "../mcp/server/http-auth.js";
import { readBody } from "../mcp/server/http-body.js";
import { PROVIDERS, type ProviderName } from "../render/index.js";
import { foreignRequest, listenOnLoopback, loopbackHosts } from "../util/loopback.js";
import type { ChangeEvent, StateView } from "./api-types.js";
import { AskBroker, runCall } from "./calls.js";
import { CONTENT_SECURITY_POLICY, pageHtml, STYLE_CSS } from "./page-html.js";
import { PrefixChanges } from "./prefix-changes.js";
import type { InspectSession } from "./session.js";
import {
  catalogView,
  deferralView,
  layersView,
  type SearchRequest,
  searchView,
  selectionView,
  toolForms,
} from "./views.js";

/** Largest request body read (a call's arguments; the host has its own cap on them too). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Most pages listening for changes at once; past it a new one is refused. */
export const MAX_EVENT_STREAMS = 32;
const KEEPALIVE_MS = 15_000;

export interface InspectServerOptions {
  port: number;
  token: string;
  /** Where the page's compiled scripts are (default: `page/` beside this module). */
  pageDir?: string;
}

export interface InspectServer {
  /** The page's address, token included: the one thing to open. */
  url: string;
  port: number;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

/**
 * The inspector's HTTP server, on 127.0.0.1 only. Every request must, in order: name this server
 * in Host and in Origin when it has one (DNS rebinding: 403); start its path with the token
 * (`/<token>/...`, compared in constant time: 401), so the page, its scripts, the API and the
 * event stream are all out of reach without it, and the page's relative URLs carry it with no
 * cookie; send a body of at most MAX_BODY_BYTES (413) of JSON (415, 400). No CORS header is ever
 * sent, so another site's page can neither read an answer nor send JSON here.
 */
export async function serveInspector(
  session: InspectSession,
  options: InspectServerOptions,
): Promise<InspectServer> {
  const tokenMatches = secretCheck(options.token);
  // "../inspect/page/": this code runs from src/inspect/ (tests) and from a bundle chunk in
  // dist/src/chunks/ (the package), both one folder below src
  const pageDir = options.pageDir ?? fileURLToPath(new URL("../inspect/page/", import.meta.url));
  const changes = new PrefixChanges();
  const streams = new Set<ServerResponse>();
  const asks = new AskBroker(() => broadcast("asks", asks.list()));
  const offChange = session.onChange((event: ChangeEvent) => broadcast("changed", event));
  const scripts = new Map<string, Buffer>();
  let allowed: ReadonlySet<string> = new Set<string>();

  function broadcast(event: string, data: unknown): void {
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const res of streams) res.write(frame);
  }

  const state = (): StateView => {
    const plane = session.plane;
    const view: StateView = {
      cwd: plane.config.cwd,
      projectRoot: plane.config.projectRoot,
      chain: [...plane.chain],
      providers: [...PROVIDERS],
      generation: session.generation,
      configFiles: [...session.configFiles],
      asks: asks.list(),
      notices: [...session.notices],
    };
    if (session.configError !== undefined) view.configError = session.configError;
    return view;
  };

  const routes: Record<string, Handler> = {
    "GET /": async (_req, res) => send(res, 200, "text/html; charset=utf-8", pageHtml()),
    "GET /style.css": async (_req, res) => send(res, 200, "text/css; charset=utf-8", STYLE_CSS),
    "GET /api/state": async (_req, res) => json(res, 200, state()),
    "GET /api/catalog": async (_req, res, url) => {
      const provider = url.searchParams.get("provider") ?? "anthropic";
      if (!(PROVIDERS as readonly string[]).includes(provider))
        return json(res, 400, {
          error: `unknown provider "${provider}": use one of ${PROVIDERS.join(", ")}`,
        });
      json(res, 200, await session.use((p) => catalogView(p, provider as ProviderName, changes)));
    },
    "GET /api/deferral": async (_req, res) => json(res, 200, await session.use(deferralView)),
    "GET /api/layers": async (_req, res) =>
      json(res, 200, await session.use((p) => layersView(p, session.configError))),
    "GET /api/selection": async (_req, res) => json(res, 200, await session.use(selectionView)),
    "GET /api/tools": async (_req, res) => json(res, 200, await session.use(toolForms)),
    "POST /api/search": async (req, res) => {
      const body = await jsonBody(req, res);
      if (body === undefined) return;
      const search = searchRequest(body);
      if (typeof search === "string") return json(res, 400, { error: search });
      try {
        const view = await session.use(async (p) => {
          const ranked = await searchView(p, search);
          if ((body as { run?: unknown }).run === true) {
            const args: Record<string, unknown> =
              search.pattern !== undefined ? { pattern: search.pattern } : { query: search.query };
            if (search.limit !== undefined) args.limit = Math.min(search.limit, 20);
            ranked.ran = await runCall(p, asks, "tool_search", args);
          }
          return ranked;
        });
        json(res, 200, view);
      } catch (error) {
        if (error instanceof SyntaxError) return json(res, 400, { error: error.message });
        throw error;
      }
    },
    "POST /api/call": async (req, res) => {
      const body = (await jsonBody(req, res)) as { tool?: unknown; args?: unknown } | undefined;
      if (body === undefined) return;
      if (typeof body?.tool !== "string" || body.tool === "")
        return json(res, 400, { error: 'send {"tool": NAME, "args": {...}}' });
      const tool = body.tool;
      json(res, 200, await session.use((p) => runCall(p, asks, tool, body.args ?? {})));
    },
    "POST /api/ask": async (req, res) => {
      const body = (await jsonBody(req, res)) as { id?: unknown; approve?: unknown } | undefined;
      if (body === undefined) return;
      if (typeof body?.id !== "string" || typeof body.approve !== "boolean")
        return json(res, 400, { error: 'send {"id": ASK_ID, "approve": true|false}' });
      if (!asks.answer(body.id, body.approve))
        return json(res, 404, { error: "no such ask is waiting (answered already, or timed out)" });
      json(res, 200, { ok: true });
    },
    "GET /events": async (req, res) => {
      if (streams.size >= MAX_EVENT_STREAMS)
        return json(res, 503, { error: `too many open pages (${MAX_EVENT_STREAMS}); close one and reload` });
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        "content-type": "text/event-stream; charset=utf-8",
        connection: "keep-alive",
      });
      res.write(`retry: 1000\nevent: hello\ndata: ${JSON.stringify({ generation: session.generation })}\n\n`);
      streams.add(res);
      const keepalive = setInterval(() => res.write(": keepalive\n\n"), KEEPALIVE_MS);
      req.on("close", () => {
        clearInterval(keepalive);
        streams.delete(res);
      });
    },
  };

  async function script(res: ServerResponse, name: string): Promise<void> {
    if (!/^[a-z0-9-]+\.js$/.test(name)) return json(res, 404, { error: "not found" });
    let text = scripts.get(name);
    if (!text) {
      try {
        text = await readFile(`${pageDir}/${name}`);
      } catch {
        return json(res, 404, {
          error: `the page script ${name} is missing from ${pageDir}: build the package (npm run build)`,
        });
      }
      scripts.set(name, text);
    }
    send(res, 200, "text/javascript; charset=utf-8", text);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const foreign = foreignRequest(req.headers, allowed);
    if (foreign) return json(res, 403, { error: foreign });
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const [, token, ...rest] = url.pathname.split("/");
    if (!tokenMatches(token)) {
      return json(res, 401, {
        error: "missing or wrong token: open the address `toolplane inspect` printed, token included",
      });
    }
    // the page's relative URLs need the trailing slash
    if (rest.length === 0) {
      res.writeHead(308, { ...SECURITY_HEADERS, location: `/${token}/` });
      res.end();
      return;
    }
    const route = `/${rest.join("/")}`;
    if (req.method === "GET" && route.startsWith("/page/")) return script(res, route.slice("/page/".length));
    const handler = routes[`${req.method} ${route}`];
    if (!handler) {
      const known = Object.keys(routes).some((r) => r.endsWith(` ${route}`));
      return json(res, known ? 405 : 404, { error: known ? "method not allowed" : "not found" });
    }
    await handler(req, res, url);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) json(res, 500, { error: `internal error: ${(error as Error).message}` });
      else res.end();
    });
  });
  const port = await listenOnLoopback(http, options.port);
  allowed = loopbackHosts(port);
  return {
    url: `http://127.0.0.1:${port}/${options.token}/`,
    port,
    close: async () => {
      offChange();
      asks.denyAll();
      for (const res of streams) res.end();
      streams.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Sent with every answer: nothing cached, sniffed, framed or referred. */
const SECURITY_HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "content-security-policy": CONTENT_SECURITY_POLICY,
};

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { ...SECURITY_HEADERS, "content-type": type });
  res.end(body);
}

function json(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(value));
}

/** The request's JSON body, or undefined after answering with why it was refused. */
async function jsonBody(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const type = req.headers["content-type"] ?? "";
  if (!/^application\/json\b/i.test(type)) {
    json(res, 415, { error: "send the body as application/json" });
    return undefined;
  }
  const read = await readBody(req, MAX_BODY_BYTES);
  if (!read.ok) {
    // the rest of the upload is never read: the connection closes once the answer is out
    res.setHeader("connection", "close");
    res.once("finish", () => req.socket.destroy());
    json(res, 413, { error: `request body over ${MAX_BODY_BYTES} bytes; nothing was run` });
    return undefined;
  }
  try {
    return JSON.parse(read.text);
  } catch (error) {
    json(res, 400, { error: `the request body is not JSON: ${(error as Error).message}` });
    return undefined;
  }
}

function searchRequest(body: unknown): SearchRequest | string {
  const b = (body ?? {}) as Record<string, unknown>;
  const query = typeof b.query === "string" && b.query.trim() !== "" ? b.query : undefined;
  const pattern = typeof b.pattern === "string" && b.pattern !== "" ? b.pattern : undefined;
  if ((query === undefined) === (pattern === undefined))
    return "send exactly one of query (words) or pattern";
  const req: SearchRequest = query !== undefined ? { query } : { pattern: pattern! };
  if (typeof b.limit === "number") req.limit = b.limit;
  if (b.over === "all" || b.over === "deferred") req.over = b.over;
  return req;
}
