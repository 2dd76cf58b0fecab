// PostToolUse on Edit and Write: tell the model what is left to do about the file it changed
// (additionalContext: added to the result it reads).
import { readFileSync } from "node:fs";

const event = JSON.parse(readFileSync(0, "utf8"));
const file = event.tool_input.file_path;
const todos = readFileSync(file, "utf8")
  .split("\n")
  .filter((line) => line.includes("TODO")).length;

if (todos > 0) {
  const answer = {
    hookSpecificOutput: {
      hookEventName: "PostToolUse",
      additionalContext: `${file} still has ${todos} TODO line(s).`,
    },
  };
  process.stdout.write(JSON.stringify(answer));
}
