import type { Command } from "commander";
import { basicRun, createToolServer, serveHttp, serveStdio } from "../../mcp/server/index.js";
import { type CommonOptions, examples, openToolplane, say, UsageError, withCommon } from "../common.js";

export function serveCommand(program: Command): void {
  const cmd = program
    .command("serve")
    .description(
      "serve this scope's tools (and user-invocable skills as prompts) over MCP: stdio, or Streamable HTTP",
    )
    .option(
      "--http <port>",
      "serve Streamable HTTP on 127.0.0.1:PORT (0 picks a free port) instead of stdio",
    );
  withCommon(cmd);
  examples(cmd, [
    "toolplane serve",
    "toolplane serve --http 8765 --scope 'session-1>agent:reviewer'",
    'claude mcp add toolplane -- npx toolplane serve --cwd "$PWD"',
  ]);
  cmd.action(async (opts: CommonOptions & { http?: string }) => {
    const port = opts.http === undefined ? undefined : Number(opts.http);
    if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
      throw new UsageError(`--http needs a port number from 0 to 65535, got "${opts.http}"`);
    }
    const plane = await openToolplane(opts);
    const lookup = async (name: string) => (await plane.visibleTools()).find((t) => t.name === name);
    // TODO(lead): swap basicRun for the execution host's run (permissions, result limits, spill).
    const run = basicRun({
      lookup,
      context: {
        cwd: plane.config.cwd,
        workspace: plane.config.projectRoot,
        config: plane.config.ofKind("run-time"),
        log: say,
      },
      defaultTimeoutMs: plane.config.get("tools.timeoutMs") as number,
    });
    const hub = await createToolServer({
      tools: () => plane.visibleTools(),
      run,
      prompts: () => [],
      subscribe: (listener) => plane.tools.on("invalidated", listener),
      log: say,
    });
    let stop: () => Promise<void> = async () => {};
    const done = new Promise<void>((resolve) => {
      const quit = () => resolve();
      process.once("SIGINT", quit);
      process.once("SIGTERM", quit);
      if (port === undefined) serveStdio(hub).then(quit, quit);
    });
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
