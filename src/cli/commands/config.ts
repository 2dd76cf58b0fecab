import type { Command } from "commander";
import { CONFIG_KEY_NAMES, type ConfigValue, keySpec, loadConfig } from "../../config/index.js";
import { type CommonOptions, examples, printJson, withCommon } from "../common.js";

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
  cmd.action((opts: CommonOptions) => {
    // only the configuration is read: no tool module is imported and no MCP server started
    const config = loadConfig({ cwd: opts.cwd ?? process.cwd(), set: opts.set ?? [] });
    const values: Record<string, ConfigValue & { doc?: string }> = {};
    for (const key of CONFIG_KEY_NAMES) {
      const v = config.values[key];
      const entry: ConfigValue = { value: v.value, layer: v.layer, kind: v.kind };
      if (v.source !== undefined) entry.source = v.source;
      if (v.contributions !== undefined) entry.contributions = v.contributions;
      values[key] = entry;
    }
    const { trust } = config;
    if (opts.json) {
      printJson({ values, trust });
      return;
    }
    const width = Math.max(...CONFIG_KEY_NAMES.map((k) => k.length));
    for (const key of CONFIG_KEY_NAMES) {
      const v = values[key]!;
      const from = v.layer === "default" ? "default" : `${v.layer}: ${v.source ?? ""}`;
      process.stdout.write(`${key.padEnd(width)}  ${JSON.stringify(v.value)}  [${from}] (${v.kind})\n`);
      const doc = keySpec(key)?.doc;
      if (doc) process.stdout.write(`${"".padEnd(width)}  ${doc}\n`);
    }
    process.stdout.write(
      `\nproject ${trust.project}: ${trust.trusted ? "trusted" : "not trusted"} (${trust.source})\n`,
    );
    if (trust.ignored.length > 0) {
      process.stdout.write(
        "not applied from its .toolplane/config.json (a project nobody trusted may only tighten):\n",
      );
      for (const i of trust.ignored)
        process.stdout.write(`  ${i.key}: ${i.reason}: ${JSON.stringify(i.value)}\n`);
      process.stdout.write(`run \`${trust.command}\` if you trust this repository's code\n`);
    }
  });
}
