import type { Command } from "commander";
import { examples, lazyAction, withCommon } from "../common.js";

export function layersCommand(program: Command): void {
  const cmd = program
    .command("layers")
    .description("print every layer's entries, the provider that gave each, and which are shadowed");
  withCommon(cmd);
  examples(cmd, ["toolplane layers", "toolplane layers --scope 'session-1>preset:review' --json"]);
  cmd.action(lazyAction(() => import("../actions/layers.js")));
}
