import type { Command } from "commander";
import { validateSkillPaths } from "../../discover/index.js";
import { verdicts } from "../color.js";
import { type CommonOptions, printJson, UsageError } from "../common.js";

/** `toolplane skills validate`: its options and help are in commands/skills.ts, loaded without this module. */
export const action = async (paths: string[], _opts: CommonOptions, self: Command) => {
  // --json, --cwd and --set may be parsed by the parent `skills` command: read both
  const opts = self.optsWithGlobals() as CommonOptions;
  if (paths.length === 0) throw new UsageError("name at least one skill file or directory to validate");
  const results = await validateSkillPaths(paths, opts.cwd ?? process.cwd());
  if (opts.json) printJson(results);
  else {
    const paint = verdicts();
    for (const r of results) {
      process.stdout.write(`${r.valid ? paint.pass("ok     ") : paint.fail("INVALID")} ${r.path}\n`);
      for (const e of r.errors) process.stdout.write(`        ${e}\n`);
    }
  }
  if (results.some((r) => !r.valid)) process.exitCode = 1;
};
