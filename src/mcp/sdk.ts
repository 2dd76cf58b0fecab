/**
 * The MCP SDK, imported on first use. It is the largest dependency to load (over 100 ms on a cold
 * start), so importing toolplane, or running a command that starts no MCP client or server, must
 * not pay for it. An async step (connecting, serving) loads it; the code that runs after it reads
 * the loaded modules synchronously through the accessors below.
 */
import { importModule } from "../util/import-module.js";

type Types = typeof import("@modelcontextprotocol/sdk/types.js");
type Shared = typeof import("@modelcontextprotocol/sdk/shared/stdio.js");
type ClientSdk = typeof import("@modelcontextprotocol/sdk/client/index.js") &
  typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js") &
  typeof import("@modelcontextprotocol/sdk/client/stdio.js");
type ServerSdk = typeof import("@modelcontextprotocol/sdk/server/index.js") &
  typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js");

/** Zod, which the SDK itself imports: the client's loose result schemas are built with the same copy. */
type Zod = { z: typeof import("zod").z };

export type McpBaseSdk = Types & Shared & Zod;

let base: McpBaseSdk | undefined;
let client: ClientSdk | undefined;
let server: ServerSdk | undefined;
let loadingBase: Promise<McpBaseSdk> | undefined;
let loadingClient: Promise<ClientSdk & McpBaseSdk> | undefined;
let loadingServer: Promise<ServerSdk & McpBaseSdk> | undefined;

/** The SDK's types (schemas, McpError, ErrorCode) and its stdio framing. */
export function loadBaseSdk(): Promise<McpBaseSdk> {
  loadingBase ??= Promise.all([
    importModule<typeof import("@modelcontextprotocol/sdk/types.js")>("@modelcontextprotocol/sdk/types.js"),
    importModule<typeof import("@modelcontextprotocol/sdk/shared/stdio.js")>(
      "@modelcontextprotocol/sdk/shared/stdio.js",
    ),
    importModule<typeof import("zod")>("zod"),
  ]).then(([types, shared, zod]) => {
    base = { ...types, ...shared, z: zod.z };
    return base;
  });
  return loadingBase;
}

/** The client side (Client and its transports), with the base. */
export function loadClientSdk(): Promise<ClientSdk & McpBaseSdk> {
  loadingClient ??= Promise.all([
    loadBaseSdk(),
    importModule<typeof import("@modelcontextprotocol/sdk/client/index.js")>(
      "@modelcontextprotocol/sdk/client/index.js",
    ),
    importModule<typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js")>(
      "@modelcontextprotocol/sdk/client/streamableHttp.js",
    ),
    importModule<typeof import("@modelcontextprotocol/sdk/client/stdio.js")>(
      "@modelcontextprotocol/sdk/client/stdio.js",
    ),
  ]).then(([b, index, http, stdio]) => {
    client = { ...index, ...http, ...stdio };
    return { ...b, ...client };
  });
  return loadingClient;
}

/** The server side (Server and the Streamable HTTP transport), with the base. */
export function loadServerSdk(): Promise<ServerSdk & McpBaseSdk> {
  loadingServer ??= Promise.all([
    loadBaseSdk(),
    importModule<typeof import("@modelcontextprotocol/sdk/server/index.js")>(
      "@modelcontextprotocol/sdk/server/index.js",
    ),
    importModule<typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js")>(
      "@modelcontextprotocol/sdk/server/streamableHttp.js",
    ),
  ]).then(([b, index, http]) => {
    server = { ...index, ...http };
    return { ...b, ...server };
  });
  return loadingServer;
}

const notLoaded = (part: string, how: string) =>
  new Error(`the MCP SDK's ${part} is not loaded yet: ${how} first (toolplane does so before it is needed)`);

export function baseSdk(): McpBaseSdk {
  if (!base) throw notLoaded("types", "await loadBaseSdk()");
  return base;
}

export function clientSdk(): ClientSdk & McpBaseSdk {
  if (!base || !client) throw notLoaded("client", "await loadClientSdk()");
  return { ...base, ...client };
}

export function serverSdk(): ServerSdk & McpBaseSdk {
  if (!base || !server) throw notLoaded("server", "await loadServerSdk()");
  return { ...base, ...server };
}

/** An McpError from the SDK (none can exist before the SDK was loaded). */
export function isMcpError(error: unknown): error is InstanceType<Types["McpError"]> {
  return base !== undefined && error instanceof base.McpError;
}
