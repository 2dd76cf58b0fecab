import type { Command } from "commander";
import { PROVIDERS, type ProviderName } from "../../render/index.js";
import { type CommonOptions, examples, openToolplane, printJson, UsageError, withCommon } from "../common.js";
import { formatCatalog } from "../format/catalog.js";

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
  cmd.action(async (opts: CommonOptions & { provider: string }) => {
    if (!(PROVIDERS as readonly string[]).includes(opts.provider)) {
      throw new UsageError(`unknown provider "${opts.provider}": use one of ${PROVIDERS.join(", ")}`);
    }
    const plane = await openToolplane(opts);
    try {
      const catalog = await plane.catalog(opts.provider as ProviderName);
      if (opts.json) printJson(catalog);
      else process.stdout.write(formatCatalog(catalog));
      if (catalog.incomplete) process.exitCode = 1;
    } finally {
      await plane.close();
    }
  });
}
