import type { Command } from "commander";
import { examples, lazyAction, withCommon } from "../common.js";

export function doctorCommand(program: Command): void {
  const cmd = program
    .command("doctor")
    .description(
      "check the known failure modes of a tool layer (one check each, with the detail and a fix); exit 1 when one fails",
    );
  withCommon(cmd);
  examples(cmd, ["toolplane doctor", "toolplane doctor --scope 'preset:review' --json"]);
  cmd.action(lazyAction(() => import("../actions/doctor.js")));
}
