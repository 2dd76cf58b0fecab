// PreToolUse on Edit, MultiEdit and Write: a lockfile is written by the package manager, never by
// hand (a JSON deny: its reason is what the model is told).
import { readFileSync } from "node:fs";
import path from "node:path";

const event = JSON.parse(readFileSync(0, "utf8"));
const file = path.basename(event.tool_input.file_path ?? "");

if (["package-lock.json", "yarn.lock", "pnpm-lock.yaml", "Cargo.lock"].includes(file)) {
  const answer = {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: `${file} is written by the package manager: change the manifest and run the install.`,
    },
  };
  process.stdout.write(JSON.stringify(answer));
}
