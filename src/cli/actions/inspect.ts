import { startInspector } from "../../inspect/index.js";
import { progress } from "../../util/progress.js";
import { type CommonOptions, portError, printJsonLine, say, UsageError } from "../common.js";

interface InspectCliOptions extends CommonOptions {
  port: string;
}

/** `toolplane inspect`: its options and help are in commands/inspect.ts, loaded without this module. */
export const action = async (opts: InspectCliOptions) => {
  const port = Number(opts.port);
  if (!(opts.port.trim() !== "" && Number.isInteger(port) && port >= 0 && port <= 65535))
    throw new UsageError(`--port needs a port number from 0 to 65535, got "${opts.port}"`);
  const inspector = await startInspector({
    cwd: opts.cwd ?? process.cwd(),
    set: opts.set ?? [],
    port,
    log: say,
    progress: (label) => progress(label),
    ...(opts.scope !== undefined ? { scope: opts.scope } : {}),
  }).catch((error) => {
    throw portError(error, "--port");
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
};
