import type { Command } from "commander";
import type { ToolCall } from "../../execute/types.js";
import { createToolServer, serveHttp, serveStdio } from "../../mcp/server/index.js";
import { type CommonOptions, examples, openToolplane, say, UsageError, withCommon } from "../common.js";

export function serveCommand(program: Command): void {
  const cmd = program
    .command("serve")
    .description(
      "serve this scope's tools (and user-invocable skills as prompts) over MCP: stdio, or Streamable HTTP",
    )
    .option("--http <port>", "serve Streamable HTTP on 127.0.0.1:PORT (0 picks a free port) instead of stdio")
    .option("--yes", "approve every permission that asks (without it, an ask is denied)");
  withCommon(cmd);
  examples(cmd, [
    "toolplane serve",
    "toolplane serve --http 8765 --scope 'session-1>agent:reviewer'",
    'claude mcp add toolplane -- npx toolplane serve --cwd "$PWD"',
  ]);
  cmd.action(async (opts: CommonOptions & { http?: string; yes?: boolean }) => {
    const port = opts.http === undefined ? undefined : Number(opts.http);
    if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
      throw new UsageError(`--http needs a port number from 0 to 65535, got "${opts.http}"`);
    }
    const plane = await openToolplane(opts);
    // Every call goes through the execution host: permissions, validation, timeouts, limits, spill.
    // An MCP client has its own approval UI, so asks are approved only with --yes.
    const host = plane.host({
      log: say,
      ...(opts.yes ? { ask: async () => true } : {}),
    });
    const run = (call: ToolCall, signal: AbortSignal) => host.call(call, { signal });
    // MCP clients cap their tool lists too (Cursor 40, OpenAI 128 functions), so the server lists
    // what a model would see: resident tools, tool_search when anything is deferred, then the tools
    // it loaded (a load sends list_changed). A deferred tool is callable once tool_search loaded it.
    const hub = await createToolServer({
      tools: () => plane.modelTools(),
      run,
      prompts: () => [],
      subscribe: (listener) => plane.onToolsChanged(listener),
      log: say,
    });
    let stop: () => Promise<void> = async () => {};
    const done = new Promise<void>((resolve) => {
      const quit = () => resolve();
      process.once("SIGINT", quit);
      process.once("SIGTERM", quit);
      if (port === undefined) serveStdio(hub).then(quit, quit);
    });
    // a person who ran this in a terminal sees why nothing happens (an MCP client pipes stdin)
    if (port === undefined && process.stdin.isTTY)
      say(
        "toolplane serve: speaking MCP (JSON-RPC) on stdin/stdout; start it from an MCP client, or press Ctrl-C to stop",
      );
    if (port !== undefined) {
      const handle = await serveHttp(hub, port);
      stop = handle.close;
      say(`toolplane serve: listening on ${handle.url}`);
    }
    await done;
    await hub.close();
    await stop();
    await plane.close();
  });
}
