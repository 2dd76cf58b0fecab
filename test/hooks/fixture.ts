// A project whose user configuration has command hooks in Claude Code's format: the scripts the
// CLI and serve tests share.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PYTHON3 } from "../helpers/system-parts.js";
import { tempProject } from "../helpers/tmp.js";

/** Running (a zombie waiting for its reaper has ended). */
export const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

// one PreToolUse script for every case: it keeps each input it was given, and answers by a word in it
const HOOK = `#!/bin/sh
input=$(cat)
printf '%s\\n' "$input" >> "$CLAUDE_PROJECT_DIR/pre.log"
case "$input" in
  *BLOCKME*) echo "blocked: no BLOCKME here" >&2; exit 2 ;;
  *DENYME*) printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"DENYME is not allowed"}}' ;;
  *ALLOWME*) printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}' ;;
  *REWRITEME*) printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo x > out.txt"}}}' ;;
  *CONTEXTME*) printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"remember the style guide"}}' ;;
esac
exit 0
`;

const POST = `#!/bin/sh
cat > "$CLAUDE_PROJECT_DIR/post.json"
printf '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"post hook saw it"}}'
`;

// A PreToolUse check in Python, written the way Claude Code's documentation writes them (its
// bash-command validator: tool_name "Bash", tool_input.command, reasons on stderr and exit 2);
// the documented script itself is checked by hand (docs/hooks.md), not copied here.
const VALIDATOR = `import json, re, sys

RULES = [
    (r"^grep\\b", "use rg instead of grep"),
    (r"^find\\s+\\S+\\s+-name\\b", "use rg --files -g instead of find -name"),
]

try:
    event = json.load(sys.stdin)
except json.JSONDecodeError as error:
    print(f"not JSON: {error}", file=sys.stderr)
    sys.exit(1)
if event.get("tool_name") != "Bash":
    sys.exit(0)
command = event.get("tool_input", {}).get("command", "")
problems = [message for pattern, message in RULES if re.search(pattern, command)]
for message in problems:
    print(f"- {message}", file=sys.stderr)
sys.exit(2 if problems else 0)
`;

/** The hooks, the permission rules, and the sandbox off (the hooks are under test, not bwrap). */
export function hookedProject(extra: Record<string, unknown> = {}) {
  const p = tempProject({ "a.txt": "alpha\n", "CONTEXTME.txt": "context\n" });
  const bin = path.join(p.root, "bin");
  mkdirSync(bin);
  for (const [name, body] of [
    ["pre.sh", HOOK],
    ["post.sh", POST],
  ] as const) {
    writeFileSync(path.join(bin, name), body);
    chmodSync(path.join(bin, name), 0o755);
  }
  writeFileSync(path.join(bin, "validate.py"), VALIDATOR);
  const hooks = {
    PreToolUse: [
      { matcher: "*", hooks: [{ type: "command", command: path.join(bin, "pre.sh"), timeout: 20 }] },
      {
        matcher: "Bash",
        hooks: [{ type: "command", command: `${PYTHON3} ${path.join(bin, "validate.py")}` }],
      },
    ],
    // a regular expression (not a plain name): RE2JS loads in the CLI's bundle
    PostToolUse: [{ matcher: "^Rea.$", hooks: [{ type: "command", command: path.join(bin, "post.sh") }] }],
  };
  const permissions = {
    rules: [
      { effect: "deny", path: "secret/**", reason: "secrets stay put" },
      { effect: "allow", action: "command", pattern: "echo *" },
    ],
  };
  const home = path.join(p.home, ".config", "toolplane");
  mkdirSync(home, { recursive: true });
  writeFileSync(
    path.join(home, "config.json"),
    JSON.stringify({ hooks: { ...hooks, ...extra }, permissions }),
  );
  return { ...p, env: { ...p.bareEnv, TOOLPLANE_TOOLS_SANDBOX: "off" } };
}
