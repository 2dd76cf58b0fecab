import { loadConfig } from "../../config/index.js";
import { canonicalServerUrl, clientIdentity, forgetLogins, loginsDir } from "../../mcp/client/oauth/store.js";
import type { McpServerConfig } from "../../mcp/config.js";
import { type CommonOptions, printJson, say } from "../common.js";
import { httpServerOf } from "../mcp-server.js";

/**
 * `toolplane mcp logout NAME`: forgets every login toolplane keeps for the server's URL (tokens
 * and client registration). The authorization server is not told: its grant ends when the tokens
 * expire, or where it lists the applications you allowed.
 */
export const action = (name: string, opts: CommonOptions) => {
  const config = loadConfig({ cwd: opts.cwd ?? process.cwd(), set: opts.set ?? [] });
  const server = httpServerOf(config.get("mcp.servers") as Record<string, McpServerConfig>, name);
  const removed = forgetLogins(loginsDir(process.env), server.url, clientIdentity(server.oauth));
  if (opts.json)
    printJson({ server: name, url: canonicalServerUrl(server.url), loggedOut: removed.length > 0, removed });
  say(
    removed.length > 0
      ? `logged out of MCP server "${name}" (${server.url}): removed ${removed.join(", ")}`
      : `no login was kept for MCP server "${name}" (${server.url})`,
  );
};
