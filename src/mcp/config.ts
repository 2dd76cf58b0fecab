/** One configured MCP server, as `mcp.servers.<name>` holds it (validated by src/config/keys.ts). */
export type McpServerConfig = McpStdioConfig | McpHttpConfig;

interface McpCommonConfig {
  /** Trust the server's tool annotations (readOnlyHint may then relax permissions and concurrency). */
  trusted?: boolean;
  /** One call's timeout; defaults to the run-time key tools.timeoutMs. */
  timeoutMs?: number;
  /** Start-up (spawn or connect, initialize, first tools/list) timeout. */
  startTimeoutMs?: number;
}

export interface McpStdioConfig extends McpCommonConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

export interface McpHttpConfig extends McpCommonConfig {
  url: string;
  headers?: Record<string, string>;
  oauth?: McpOAuthConfig;
}

/** `mcp.servers.<name>.oauth`: what the MCP authorization flow cannot discover by itself. */
export interface McpOAuthConfig {
  /** A pre-registered client (the authorization server has no dynamic registration, or you prefer yours). */
  clientId?: string;
  clientSecret?: string;
  /** A client ID metadata document (https URL), used where the authorization server supports them. */
  clientMetadataUrl?: string;
  /** Scopes to ask for when the server names none (neither its 401 challenge nor its metadata). */
  scopes?: string[];
  /** The loopback port of the redirect (default: a free one), for a client registered with a fixed one. */
  callbackPort?: number;
}

export const DEFAULT_START_TIMEOUT_MS = 8_000;
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;

export function isStdio(config: McpServerConfig): config is McpStdioConfig {
  return "command" in config;
}

/** `mcp:<server>`: the registry provider name and the permission namespace of its tools. */
/** What every MCP server's registry provider name starts with. */
export const MCP_PROVIDER_PREFIX = "mcp:";

export function providerName(server: string): string {
  return `${MCP_PROVIDER_PREFIX}${server}`;
}

/** How toolplane names itself to MCP peers, as client and as server. */
export const MCP_IMPLEMENTATION = { name: "toolplane", version: "0.1.0" };
