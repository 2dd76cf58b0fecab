import { fstatSync } from "node:fs";
import type { SkillsView } from "../../discover/view.js";
import { identicalCopy } from "../../doctor/identical.js";
import { type CommonOptions, printJson, printJsonLine, say } from "../common.js";
import { openToolplane } from "../open.js";

/** `toolplane skills`: its options and help are in commands/skills.ts, loaded without this module. */
export const action = async (opts: CommonOptions & { watch?: boolean }) => {
  const plane = await openToolplane(opts);
  if (!opts.watch) {
    try {
      const view = await plane.skillsView();
      if (opts.json) printJson(view);
      else process.stdout.write(formatSkills(view));
    } finally {
      await plane.close();
    }
    return;
  }
  const print = (view: SkillsView) => {
    if (opts.json) printJsonLine(view);
    else process.stdout.write(`${formatSkills(view)}\n`);
  };
  const watcher = await plane.watchSkills({
    onAudit: (r) =>
      say(`skills audit: ${r.differences.length} difference(s) with the watched state, repaired`),
    onError: (e) => say(`skills watch: ${e.message}`),
  });
  plane.discovery.onChange(print);
  print(await plane.skillsView());
  say("watching skill roots; press Ctrl-C to stop");
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    // a harness that drives us through a pipe stops us by closing it; a terminal or /dev/null does not
    if (stdinIsPipe()) {
      process.stdin.once("end", stop);
      process.stdin.resume();
    }
  });
  await watcher.close();
  await plane.close();
};

function formatSkills(view: SkillsView): string {
  const out: string[] = [];
  if (view.skills.length === 0) out.push("no skills found");
  for (const s of view.skills) {
    const who = s.modelVisible
      ? s.userVisible
        ? ""
        : "  [model only]"
      : s.userVisible
        ? "  [user only]"
        : "  [dormant]";
    out.push(`${s.name}  (rank ${s.rank}, ${s.form})${s.disabled ? "  [disabled]" : who}`);
    out.push(`  ${s.path}`);
  }
  for (const s of view.shadowed) {
    const copy = identicalCopy(s) ? "; an identical copy, not a conflict" : "";
    out.push(`shadowed: ${s.name}  ${s.path}  (by ${s.by.path}${copy})`);
  }
  for (const p of view.problems) {
    out.push(`problem: ${p.path}`);
    for (const e of p.errors) out.push(`  ${e}`);
  }
  return `${out.join("\n")}\n`;
}

function stdinIsPipe(): boolean {
  try {
    const s = fstatSync(0);
    return s.isFIFO() || s.isSocket();
  } catch {
    return false;
  }
}
