import type { McpServerConfig } from "../../mcp/config.js";
import { browserOpener, cliLogin } from "../browser.js";
import { type CommonOptions, printJson, say, UsageError } from "../common.js";
import { httpServerOf } from "../mcp-server.js";
import { openToolplane } from "../open.js";

/**
 * `toolplane mcp login NAME`: connects to the server as a call would, with stored tokens set
 * aside, so its first refusal runs the OAuth flow through the browser; the new tokens replace the
 * stored ones. Its options and help are in commands/mcp.ts, loaded without this module.
 */
export const action = async (name: string, opts: CommonOptions) => {
  const plane = await openToolplane(opts, {
    mcpServers: (s) => s === name,
    mcpLogin: cliLogin(browserOpener(), say),
  });
  try {
    const config = httpServerOf(plane.config.get("mcp.servers") as Record<string, McpServerConfig>, name);
    const provider = plane.mcp?.provider(name);
    const oauth = provider?.connection.oauth;
    if (!provider || !oauth)
      throw new UsageError(
        `MCP server "${name}" sends its own Authorization header (mcp.servers.${name}.headers): toolplane does not log in to it`,
      );
    oauth.startFresh();
    // the login runs where the server first refuses: at initialize, or at tools/list
    const observation = await provider.enumerate();
    const tools = observation.entries.length;
    if (!oauth.challenged) {
      if (opts.json) printJson({ server: name, url: config.url, loggedIn: false, needed: false, tools });
      say(`MCP server "${name}" (${config.url}) did not ask for a login: nothing to do (${count(tools)})`);
      return;
    }
    const tokens = oauth.provider.tokens();
    const login = oauth.provider.store.read();
    const scopes = (tokens?.scope ?? "").split(" ").filter(Boolean);
    const expiresAt =
      tokens?.expires_in !== undefined && login?.obtainedAt !== undefined
        ? new Date(login.obtainedAt + tokens.expires_in * 1000).toISOString()
        : null;
    // what was granted, never the tokens themselves
    if (opts.json)
      printJson({
        server: name,
        url: config.url,
        loggedIn: true,
        scopes,
        expiresAt,
        refreshable: tokens?.refresh_token !== undefined,
        file: oauth.provider.store.file,
        tools,
      });
    say(
      `logged in to MCP server "${name}" (${config.url})${scopes.length > 0 ? ` with scopes ${scopes.join(" ")}` : ""}; ${count(tools)}` +
        `\n  the login is kept in ${oauth.provider.store.file} (yours alone); \`toolplane mcp logout ${name}\` forgets it`,
    );
  } finally {
    await plane.close();
  }
};

const count = (tools: number) => `${tools} tool${tools === 1 ? "" : "s"}`;
