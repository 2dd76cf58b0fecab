import type { Command } from "commander";
import { runDoctor } from "../../doctor/index.js";
import { verdicts } from "../color.js";
import { type CommonOptions, examples, openToolplane, printJson, say, withCommon } from "../common.js";

export function doctorCommand(program: Command): void {
  const cmd = program
    .command("doctor")
    .description(
      "check the known failure modes of a tool layer (one check each, with the detail and a fix); exit 1 when one fails",
    );
  withCommon(cmd);
  examples(cmd, ["toolplane doctor", "toolplane doctor --scope 'preset:review' --json"]);
  cmd.action(async (opts: CommonOptions) => {
    const plane = await openToolplane(opts);
    try {
      const report = await runDoctor({
        plane,
        reopen: (set) => openToolplane({ ...opts, set: [...(opts.set ?? []), ...set] }),
      });
      const failed = report.checks.filter((c) => !c.ok).length;
      if (opts.json) printJson(report);
      else {
        const paint = verdicts();
        for (const c of report.checks) {
          process.stdout.write(
            `${c.ok ? paint.pass("ok  ") : paint.fail("FAIL")}  ${c.station}/${c.check}: ${c.detail.replace(/\n/g, "\n        ")}\n`,
          );
          if (!c.ok && c.fix) process.stdout.write(`        fix: ${c.fix}\n`);
        }
      }
      if (failed > 0) {
        say(`${failed} of ${report.checks.length} checks failed`);
        process.exitCode = 1;
      }
    } finally {
      await plane.close();
    }
  });
}
