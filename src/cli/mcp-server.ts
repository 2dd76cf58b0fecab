import { isStdio, type McpHttpConfig, type McpServerConfig } from "../mcp/config.js";
import { UsageError } from "./common.js";

/** The HTTP server `name` of the effective configuration, or the usage error that says why not. */
export function httpServerOf(servers: Record<string, McpServerConfig>, name: string): McpHttpConfig {
  const config = Object.hasOwn(servers, name) ? servers[name] : undefined;
  if (!config) {
    const known = Object.keys(servers).sort();
    throw new UsageError(
      `no MCP server "${name}" in mcp.servers${known.length > 0 ? ` (configured: ${known.join(", ")})` : ""}; \`toolplane config\` shows where servers come from`,
    );
  }
  if (isStdio(config))
    throw new UsageError(`MCP server "${name}" runs a command (stdio): only HTTP servers have logins`);
  return config;
}
