import type { Command } from "commander";
import { examples, lazyAction, withCommon } from "../common.js";

export function callCommand(program: Command): void {
  const cmd = program
    .command("call")
    .description(
      "run one tool call as the host would: validation, permissions, timeout, result limits and spill",
    )
    .argument("<tool>", "the tool's name")
    .option("--args <json>", "the call's arguments as JSON text (default: {})")
    .option("--yes", "approve every permission that asks (without it, an ask is denied)")
    .option(
      "--session <id>",
      "keep this session's state between calls (files read, loaded deferred tools) under $TOOLPLANE_HOME/sessions, so a read and a later edit are one session",
    );
  withCommon(cmd);
  examples(cmd, [
    `toolplane call read --args '{"path": "README.md", "limit": 20}'`,
    'toolplane call grep --args \'{"pattern": "TODO"}\' --set results.inlineMaxBytes=4096',
    `toolplane call ticket_status --args '{"ticket_id": "T-1001"}' --set tools.examples=true --json`,
    `toolplane call read --session s1 --args '{"path": "notes.txt"}' && toolplane call edit --session s1 --yes --args '{"path": "notes.txt", "oldString": "a", "newString": "b"}'`,
  ]);
  cmd.action(lazyAction(() => import("../actions/call.js")));
}
