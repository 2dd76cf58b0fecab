// HTTP MCP servers for the client's tests, built from the MCP SDK's own server parts: an OAuth
// authorization server (the SDK's mcpAuthRouter: metadata, dynamic registration, PKCE, token
// endpoint) beside a protected resource (its metadata router and requireBearerAuth), and a plain
// server whose tool asks the client for a form (elicitation). They live in the test's process:
// run the CLI against them with runCliAsync (test/helpers/cli.ts).
import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { ROOT } from "./cli.js";

// express is the SDK's own dependency (its auth routers are express routers): taken from there
const sdkRequire = createRequire(
  path.join(ROOT, "node_modules", "@modelcontextprotocol", "sdk", "package.json"),
);
// (no @types/express here: the little of its API used is typed below)
type Request = IncomingMessage & { body?: unknown };
type Response = ServerResponse & {
  status(code: number): Response;
  send(body: string): void;
  redirect(url: string): void;
};
type Handler = (req: Request, res: Response, next: () => void) => unknown;
interface App {
  (req: IncomingMessage, res: ServerResponse): void;
  use(...handlers: unknown[]): App;
  all(path: string, ...handlers: Handler[]): App;
  listen(port: number, host: string, ready: () => void): Server;
}
const express = sdkRequire("express") as (() => App) & { json(): Handler };
const sdk = (p: string) => import(`@modelcontextprotocol/sdk/${p}`);

async function listen(app: App): Promise<{ http: Server; base: string }> {
  const http = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  return { http, base: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

const close = (http: Server) =>
  new Promise<void>((resolve) => {
    http.closeAllConnections();
    http.close(() => resolve());
  });

interface Issued {
  clientId: string;
  scopes: string[];
  expiresAt: number;
  resource?: URL;
}

export interface OAuthMcpServer {
  /** The MCP endpoint (the protected resource). */
  url: string;
  issuer: string;
  /** What happened, for assertions. */
  seen: { authorizations: number; registrations: number; refreshes: number; bearers: string[] };
  /** Makes every access token issued so far invalid (a server restart, a revoked grant). */
  forgetAccessTokens(): void;
  close(): Promise<void>;
}

/**
 * An OAuth-protected MCP server with one tool, `whoami`, that answers the client ID and scopes of
 * the token it was called with. Its authorization endpoint approves at once (a person who clicks
 * "allow") and redirects to the client's registered redirect URI.
 */
export async function startOAuthMcpServer(
  o: { expiresInSec?: number; scopes?: string[] } = {},
): Promise<OAuthMcpServer> {
  const { mcpAuthRouter, mcpAuthMetadataRouter, getOAuthProtectedResourceMetadataUrl } =
    await sdk("server/auth/router.js");
  const { requireBearerAuth } = await sdk("server/auth/middleware/bearerAuth.js");
  const { McpServer } = await sdk("server/mcp.js");
  const { StreamableHTTPServerTransport } = await sdk("server/streamableHttp.js");
  const seen = { authorizations: 0, registrations: 0, refreshes: 0, bearers: [] as string[] };
  const clients = new Map<string, Record<string, unknown>>();
  const codes = new Map<
    string,
    { clientId: string; challenge: string; scopes: string[]; resource?: URL; redirectUri: string }
  >();
  const access = new Map<string, Issued>();
  const refresh = new Map<string, Issued>();
  const expiresIn = o.expiresInSec ?? 3600;
  const issue = (grant: Issued) => {
    const token = `at-${randomUUID()}`;
    const again = `rt-${randomUUID()}`;
    access.set(token, { ...grant, expiresAt: Date.now() + expiresIn * 1000 });
    refresh.set(again, grant);
    return {
      access_token: token,
      token_type: "bearer",
      expires_in: expiresIn,
      refresh_token: again,
      scope: grant.scopes.join(" "),
    };
  };
  const provider = {
    clientsStore: {
      getClient: async (id: string) => clients.get(id),
      registerClient: async (client: Record<string, unknown>) => {
        seen.registrations++;
        clients.set(client.client_id as string, client);
        return client;
      },
    },
    async authorize(
      client: { client_id: string; redirect_uris: string[] },
      params: {
        state?: string;
        scopes?: string[];
        codeChallenge: string;
        redirectUri: string;
        resource?: URL;
      },
      res: Response,
    ) {
      seen.authorizations++;
      if (!client.redirect_uris.includes(params.redirectUri)) {
        res.status(400).send("unregistered redirect_uri");
        return;
      }
      const code = randomUUID();
      codes.set(code, {
        clientId: client.client_id,
        challenge: params.codeChallenge,
        scopes: params.scopes ?? [],
        redirectUri: params.redirectUri,
        ...(params.resource ? { resource: params.resource } : {}),
      });
      const target = new URL(params.redirectUri);
      target.searchParams.set("code", code);
      if (params.state !== undefined) target.searchParams.set("state", params.state);
      res.redirect(target.href);
    },
    async challengeForAuthorizationCode(_client: unknown, code: string) {
      const c = codes.get(code);
      if (!c) throw new Error("unknown code");
      return c.challenge;
    },
    async exchangeAuthorizationCode(client: { client_id: string }, code: string) {
      const c = codes.get(code);
      if (!c || c.clientId !== client.client_id) throw new Error("the code was not issued to this client");
      codes.delete(code);
      return issue({
        clientId: c.clientId,
        scopes: c.scopes,
        expiresAt: 0,
        ...(c.resource ? { resource: c.resource } : {}),
      });
    },
    async exchangeRefreshToken(client: { client_id: string }, token: string) {
      const grant = refresh.get(token);
      const { InvalidGrantError } = await sdk("server/auth/errors.js");
      if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError("unknown refresh token");
      refresh.delete(token);
      seen.refreshes++;
      return issue(grant);
    },
    async verifyAccessToken(token: string) {
      const grant = access.get(token);
      const { InvalidTokenError } = await sdk("server/auth/errors.js");
      if (!grant || grant.expiresAt < Date.now()) throw new InvalidTokenError("invalid or expired token");
      return {
        token,
        clientId: grant.clientId,
        scopes: grant.scopes,
        expiresAt: Math.floor(grant.expiresAt / 1000),
      };
    },
  };

  const authApp = express();
  const asListening = await listen(authApp);
  const rsApp = express();
  const rsListening = await listen(rsApp);
  const mcpUrl = new URL("/mcp", rsListening.base);
  const scopes = o.scopes ?? ["mcp:tools"];
  authApp.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(asListening.base),
      scopesSupported: scopes,
      authorizationOptions: { rateLimit: false },
      tokenOptions: { rateLimit: false },
      clientRegistrationOptions: { rateLimit: false },
    }),
  );
  const oauthMetadata = await (
    await fetch(`${asListening.base}/.well-known/oauth-authorization-server`)
  ).json();
  rsApp.use(express.json());
  rsApp.use(mcpAuthMetadataRouter({ oauthMetadata, resourceServerUrl: mcpUrl, scopesSupported: scopes }));
  const bearer = requireBearerAuth({
    verifier: provider,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
  });
  rsApp.all(
    "/mcp",
    (req: Request, _res: Response, next: () => void) => {
      seen.bearers.push(req.headers.authorization ?? "");
      next();
    },
    bearer,
    async (req: Request, res: Response) => {
      const server = new McpServer({ name: "oauth-fixture", version: "1.0.0" });
      server.registerTool(
        "whoami",
        { description: "who the token belongs to" },
        async (extra: { authInfo?: { clientId: string; scopes: string[] } }) => ({
          content: [
            {
              type: "text",
              text: `client ${extra.authInfo?.clientId} scopes ${extra.authInfo?.scopes.join(" ")}`,
            },
          ],
        }),
      );
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    },
  );
  return {
    url: mcpUrl.href,
    issuer: asListening.base,
    seen,
    forgetAccessTokens: () => access.clear(),
    close: async () => {
      await Promise.all([close(asListening.http), close(rsListening.http)]);
    },
  };
}

/**
 * A plain MCP server (no auth) whose tool `ask` sends the client `elicitation/create` with the
 * message and requestedSchema given as its arguments, and answers what came back as JSON text.
 * `tell` answers "told" (a tool that asks nothing); `caps`, the capabilities the client declared.
 * The form goes on the client's standalone stream (the GET), which getDelayMs holds back, as a
 * busy server or network may.
 */
export async function startElicitingServer(
  options: { getDelayMs?: number } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const { Server } = await sdk("server/index.js");
  const { StreamableHTTPServerTransport } = await sdk("server/streamableHttp.js");
  const { CallToolRequestSchema, ListToolsRequestSchema } = await sdk("types.js");
  const app = express();
  app.use(express.json());
  const transports = new Map<
    string,
    { handleRequest(req: Request, res: Response, body?: unknown): Promise<void> }
  >();
  app.all("/mcp", async (req: Request, res: Response) => {
    if (req.method === "GET" && options.getDelayMs)
      await new Promise((resolve) => setTimeout(resolve, options.getDelayMs));
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? transports.get(id) : undefined;
    if (!transport) {
      const server = new Server(
        { name: "eliciting-fixture", version: "1.0.0" },
        { capabilities: { tools: {} } },
      );
      server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [
          {
            name: "ask",
            description: "asks the client a form",
            inputSchema: {
              type: "object",
              properties: { message: { type: "string" }, schema: { type: "object" } },
            },
          },
          { name: "tell", description: "asks nothing", inputSchema: { type: "object" } },
          { name: "caps", description: "the client's capabilities", inputSchema: { type: "object" } },
        ],
      }));
      server.setRequestHandler(
        CallToolRequestSchema,
        async (request: { params: { name: string; arguments?: Record<string, unknown> } }) => {
          if (request.params.name === "tell") return { content: [{ type: "text", text: "told" }] };
          if (request.params.name === "caps")
            return {
              content: [{ type: "text", text: JSON.stringify(server.getClientCapabilities() ?? {}) }],
            };
          const { message, schema } = request.params.arguments as { message: string; schema: unknown };
          try {
            // the SDK's own request (not elicitInput) so a schema the SDK would check is sent as given
            const { ElicitResultSchema } = await sdk("types.js");
            const answer = await server.request(
              { method: "elicitation/create", params: { message, requestedSchema: schema } },
              ElicitResultSchema,
            );
            return { content: [{ type: "text", text: JSON.stringify(answer) }] };
          } catch (error) {
            return { content: [{ type: "text", text: `error: ${(error as Error).message}` }], isError: true };
          }
        },
      );
      const t = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid: string) => transports.set(sid, t),
      });
      await server.connect(t);
      transport = t;
    }
    await transport?.handleRequest(req, res, req.body);
  });
  const { http, base } = await listen(app);
  return { url: `${base}/mcp`, close: () => close(http) };
}
