import type { Command } from "commander";
import { PROVIDERS } from "../../render/types.js";
import { examples, lazyAction, withCommon } from "../common.js";

export function catalogCommand(program: Command): void {
  const cmd = program
    .command("catalog")
    .description(
      "print what the model sees for this directory: tools in the provider's wire form, the system text " +
        "(skills, deferred tool names), budget use with every cut, and the prefixHash",
    )
    .option("--provider <name>", `provider wire format: ${PROVIDERS.join(", ")}`, "anthropic");
  withCommon(cmd);
  examples(cmd, [
    "toolplane catalog",
    "toolplane catalog --provider openai-chat --json",
    "toolplane catalog --provider gemini --set catalog.budget.chars=2000",
    "toolplane catalog --set catalog.budget.tokens=500 --scope 'session-1>agent:reviewer'",
  ]);
  cmd.action(lazyAction(() => import("../actions/catalog.js")));
}
