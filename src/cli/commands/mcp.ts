import type { Command } from "commander";
import { examples, lazyAction, withCommon } from "../common.js";

export function mcpCommand(program: Command): void {
  const mcp = program
    .command("mcp")
    .description("MCP servers: log in to (and out of) remote servers that use OAuth");
  const login = mcp
    .command("login")
    .description(
      "log in to an HTTP MCP server of mcp.servers: opens $BROWSER (else the system's opener) on its " +
        "authorization page and keeps the tokens in your own toolplane folder ($TOOLPLANE_HOME/mcp-oauth), never in a project",
    )
    .argument("<server>", "the server's name in mcp.servers");
  withCommon(login, { scope: false });
  examples(login, ["toolplane mcp login github", "BROWSER=firefox toolplane mcp login linear --json"]);
  login.action(lazyAction(() => import("../actions/mcp-login.js")));
  const logout = mcp
    .command("logout")
    .description(
      "forget the login to an MCP server (the tokens and the client registration toolplane keeps for its URL)",
    )
    .argument("<server>", "the server's name in mcp.servers");
  withCommon(logout, { scope: false });
  examples(logout, ["toolplane mcp logout github", "toolplane mcp logout linear --json"]);
  logout.action(lazyAction(() => import("../actions/mcp-logout.js")));
}
