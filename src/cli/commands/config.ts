import type { Command } from "commander";
import { examples, lazyAction, withCommon } from "../common.js";

export function configCommand(program: Command): void {
  const cmd = program
    .command("config")
    .description(
      "print the effective configuration: each key's value, the layer and source that set it, and its kind; " +
        "and, for a project nobody trusted, what its file set that was not applied",
    );
  withCommon(cmd, { scope: false });
  examples(cmd, [
    "toolplane config",
    "toolplane config --json",
    "TOOLPLANE_TOOLS_TIMEOUT_MS=5000 toolplane config --set results.inlineMaxBytes=4096",
  ]);
  cmd.action(lazyAction(() => import("../actions/config.js")));
}
