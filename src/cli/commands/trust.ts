import type { Command } from "commander";
import { examples, lazyAction, withCommon } from "../common.js";

export function trustCommand(program: Command): void {
  const cmd = program
    .command("trust")
    .description(
      "trust a project (recorded in your own configuration): its .toolplane/config.json then applies in full, " +
        "tool modules, MCP servers with a command and looser permissions included; --revoke takes it back",
    )
    .argument(
      "[dir]",
      "a folder of the project (default: the current one); its root is the nearest folder with .git",
    )
    .option("--revoke", "stop trusting the project: its file again applies only where it tightens");
  withCommon(cmd, { scope: false });
  examples(cmd, [
    "toolplane trust",
    "toolplane trust ~/src/my-app --json",
    "toolplane trust --revoke ~/src/my-app",
  ]);
  cmd.action(lazyAction(() => import("../actions/trust.js")));
}
