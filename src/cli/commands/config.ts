import type { Command } from "commander";
import { CONFIG_KEY_NAMES, type ConfigValue, keySpec } from "../../config/index.js";
import { type CommonOptions, examples, openToolplane, printJson, withCommon } from "../common.js";

export function configCommand(program: Command): void {
  const cmd = program
    .command("config")
    .description(
      "print the effective configuration: each key's value, the layer and source that set it, and its kind",
    );
  withCommon(cmd, { scope: false });
  examples(cmd, [
    "toolplane config",
    "toolplane config --json",
    "TOOLPLANE_TOOLS_TIMEOUT_MS=5000 toolplane config --set results.inlineMaxBytes=4096",
  ]);
  cmd.action(async (opts: CommonOptions) => {
    const plane = await openToolplane(opts);
    try {
      const values: Record<string, ConfigValue & { doc?: string }> = {};
      for (const key of CONFIG_KEY_NAMES) {
        const v = plane.config.values[key];
        const entry: ConfigValue = { value: v.value, layer: v.layer, kind: v.kind };
        if (v.source !== undefined) entry.source = v.source;
        if (v.contributions !== undefined) entry.contributions = v.contributions;
        values[key] = entry;
      }
      if (opts.json) {
        printJson({ values });
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
    } finally {
      await plane.close();
    }
  });
}
