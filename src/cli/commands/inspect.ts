import type { Command } from "commander";
import { type CommonOptions, examples, printJsonLine, say, UsageError, withCommon } from "../common.js";

interface InspectCliOptions extends CommonOptions {
  port: string;
}

export function inspectCommand(program: Command): void {
  const cmd = program
    .command("inspect")
    .description(
      "serve a live page on 127.0.0.1 that shows what the model sees: the catalog per provider with its " +
        "budget, deferral, layers and skills, tool search, and calls through the host; open the printed address",
    )
    .option("--port <port>", "port on 127.0.0.1 (0 picks a free one)", "0");
  withCommon(cmd);
  examples(cmd, [
    "toolplane inspect",
    "toolplane inspect --port 7357 --cwd ~/src/app",
    "toolplane inspect --scope 'session-1>agent:reviewer' --set catalog.budget.chars=2000",
  ]);
  cmd.action(async (opts: InspectCliOptions) => {
    const port = Number(opts.port);
    if (!(opts.port.trim() !== "" && Number.isInteger(port) && port >= 0 && port <= 65535))
      throw new UsageError(`--port needs a port number from 0 to 65535, got "${opts.port}"`);
    // loaded here, not at start-up: only this command needs the server and the page
    const { startInspector } = await import("../../inspect/index.js");
    const { progress } = await import("../../util/progress.js");
    const inspector = await startInspector({
      cwd: opts.cwd ?? process.cwd(),
      set: opts.set ?? [],
      port,
      log: say,
      progress: (label) => progress(label),
      ...(opts.scope !== undefined ? { scope: opts.scope } : {}),
    });
    if (opts.json) printJsonLine({ url: inspector.url, port: inspector.port });
    else process.stdout.write(`${inspector.url}\n`);
    say(
      "toolplane inspect: open the address above in a browser; it carries the access token, so keep it to " +
        "yourself. Press Ctrl-C to stop.",
    );
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    await inspector.close();
  });
}
