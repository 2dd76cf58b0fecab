import { configuredHooks } from "../assemble/hooks.js";
import { hookEnvironment, hookLabel } from "../hooks/index.js";
import { checkHookCommand } from "./hook-command.js";
import { type DoctorCheck, type DoctorContext, row } from "./types.js";

/**
 * The hooks in force (configured, every layer's, and the plane's in-process ones), each command's
 * program looked up as the hook would start it: one that does not exist or cannot be run fails
 * the row (the hook would fail at every call, and a PreToolUse check would never check); a
 * command whose program the shell alone can tell is listed as unchecked.
 */
export function hooksCheck(ctx: DoctorContext): DoctorCheck {
  const config = ctx.plane.config;
  const entries = [...configuredHooks(config), ...ctx.plane.hooks.entries()];
  const env = hookEnvironment(process.env, config.get("tools.shellEnv") as string[], config.projectRoot);
  const ignored = config.trust.ignored.filter((i) => i.key.startsWith("hooks.")).length;
  const lines: string[] = [];
  const findings: string[] = [];
  for (const e of entries) {
    const where = `${hookLabel(e)}${e.matcher ? ` (matcher ${JSON.stringify(e.matcher)})` : ""}, from ${e.source}`;
    if (e.run.kind === "function") {
      lines.push(`  ${where}: a function`);
      continue;
    }
    const check = checkHookCommand(e.run.command, env, config.cwd);
    if (check.status === "ok") lines.push(`  ${where}: runs ${check.program}`);
    else if (check.status === "unchecked") lines.push(`  ${where}: unchecked (${check.why})`);
    else {
      const what =
        check.status === "missing"
          ? "does not exist"
          : check.status === "not-a-file"
            ? "is not a file"
            : "is not executable";
      findings.push(`${where}: ${check.program} ${what}`);
    }
  }
  const count = entries.length === 0 ? "no hooks are in force" : `${entries.length} hook(s) in force`;
  const left = ignored > 0 ? `; the untrusted project's hooks do not run (see config/untrusted-project)` : "";
  return row(
    "hooks",
    "hook-commands",
    [`${count}${left}`, ...lines].join("\n"),
    findings,
    "fix the command's path (a relative path is from the working directory; $CLAUDE_PROJECT_DIR is the project root), install the program, or chmod +x the script",
  );
}
