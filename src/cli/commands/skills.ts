import type { Command } from "commander";
import { examples, lazyAction, withCommon } from "../common.js";

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
  cmd.action(lazyAction(() => import("../actions/skills.js")));

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
  validate.action(lazyAction(() => import("../actions/skills-validate.js")));
}
