import { CONFIG_KEY_NAMES, type ConfigValue, keySpec, loadConfig } from "../../config/index.js";
import { type CommonOptions, printJson } from "../common.js";

/** `toolplane config`: its options and help are in commands/config.ts, loaded without this module. */
export const action = (opts: CommonOptions) => {
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
};
