// PreToolUse on Bash: refuse a force push (exit 2: stderr is what the model is told), and turn
// `npm publish` into a dry run (updatedInput: toolplane checks the new command as it would the
// model's).
import { readFileSync } from "node:fs";

const event = JSON.parse(readFileSync(0, "utf8"));
const command = event.tool_input.command ?? "";

if (/\bgit\s+push\b.*(\s--force\b|\s-f\b)/.test(command)) {
  process.stderr.write("Force pushes are not allowed here: push to a new branch and open a pull request.\n");
  process.exit(2);
}
if (/^npm publish\b/.test(command) && !command.includes("--dry-run")) {
  const answer = {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      updatedInput: { ...event.tool_input, command: `${command} --dry-run` },
      additionalContext: "npm publish ran as a dry run: releases are made by CI.",
    },
  };
  process.stdout.write(JSON.stringify(answer));
}
