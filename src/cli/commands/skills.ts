import { fstatSync } from "node:fs";
import type { Command } from "commander";
import { validateSkillPaths } from "../../discover/index.js";
import type { SkillsView } from "../../discover/view.js";
import { identicalCopy } from "../../doctor/identical.js";
import { verdicts } from "../color.js";
import {
  type CommonOptions,
  examples,
  openToolplane,
  printJson,
  printJsonLine,
  say,
  UsageError,
  withCommon,
} from "../common.js";

export function skillsCommand(program: Command): void {
  const cmd = program
    .command("skills")
    .description("list the skills discovered for this directory, with visibility, shadowing and problems")
    .option(
      "--watch",
      "keep watching the skill roots; print one snapshot per change (JSON Lines with --json)",
    );
  withCommon(cmd);
  examples(cmd, [
    "toolplane skills",
    "toolplane skills --cwd ~/project --json",
    "toolplane skills --watch --json",
    "toolplane skills validate .claude/skills/my-skill",
  ]);
  cmd.action(async (opts: CommonOptions & { watch?: boolean }) => {
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
  });

  const validate = cmd
    .command("validate")
    .description(
      "validate skill files or directories strictly (Agent Skills rules); exit 1 if any is invalid",
    )
    .argument("<path...>", "a SKILL.md, a <name>.md, a skill directory, or a root of skills");
  withCommon(validate, { scope: false });
  examples(validate, [
    "toolplane skills validate .claude/skills/my-skill",
    "toolplane skills validate ~/.agents/skills --json",
  ]);
  validate.action(async (paths: string[], _opts: CommonOptions, self: Command) => {
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
  });
}

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
