import type { Command } from "commander";
import { examples, lazyAction, withCommon } from "../common.js";
import { TOKEN_VARIABLE } from "../serve-token.js";

export function serveCommand(program: Command): void {
  const cmd = program
    .command("serve")
    .description(
      "serve this scope's tools (and user-invocable skills as prompts) over MCP: stdio, or Streamable HTTP",
    )
    .option("--http <port>", "serve Streamable HTTP on 127.0.0.1:PORT (0 picks a free port) instead of stdio")
    .option(
      "--token <token>",
      `the bearer token HTTP clients must send (default: $${TOKEN_VARIABLE}, else a random one printed on start); other users can see a command line, so prefer the variable`,
    )
    .option(
      "--no-auth",
      "serve HTTP without a token: every local user and process can then run tools as you (not recommended)",
    )
    .option("--yes", "approve every permission that asks (without it, an ask is denied)")
    .option(
      "--endpoint <name=scope>",
      "with --http, also serve another scope chain at /mcp/NAME (repeatable); one process, one copy of each MCP server",
      (value: string, previous: string[] = []) => [...previous, value],
    );
  withCommon(cmd);
  examples(cmd, [
    "toolplane serve",
    "toolplane serve --http 8765 --scope 'session-1>agent:reviewer'",
    "toolplane serve --http 8765 --endpoint reviewer='s1>agent:reviewer' --endpoint writer='s1>agent:writer'",
    `${TOKEN_VARIABLE}=$(cat ~/.toolplane-token) toolplane serve --http 8765`,
    'claude mcp add toolplane -- npx toolplane serve --cwd "$PWD"',
  ]);
  cmd.action(lazyAction(() => import("../actions/serve.js")));
}
