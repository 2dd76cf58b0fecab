import type { Command } from "commander";
import { examples, lazyAction, withCommon } from "../common.js";

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
  cmd.action(lazyAction(() => import("../actions/inspect.js")));
}
