import { runDoctor } from "../../doctor/index.js";
import { verdicts } from "../color.js";
import { type CommonOptions, printJson, say } from "../common.js";
import { openToolplane } from "../open.js";

/** `toolplane doctor`: its options and help are in commands/doctor.ts, loaded without this module. */
export const action = async (opts: CommonOptions) => {
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
};
