import type { DoctorCheck, DoctorContext } from "./types.js";
import { row } from "./types.js";

/**
 * The project's own file, when nobody trusted the project: every key (or part) it set that was
 * not applied (code modules, MCP commands, looser permissions), with the command that trusts it.
 */
export function untrustedProjectCheck(ctx: DoctorContext): DoctorCheck {
  const { trust } = ctx.plane.config;
  const findings = trust.ignored.map((i) => `${i.key}: ${i.reason}; not applied: ${JSON.stringify(i.value)}`);
  const summary = trust.trusted
    ? `${trust.project} is trusted (${trust.source}): its .toolplane/config.json applies in full`
    : `${trust.project} is not trusted (${trust.source}): its .toolplane/config.json applies only where it tightens`;
  return row(
    "config",
    "untrusted-project",
    summary,
    findings,
    `if you trust this repository's code, run \`${trust.command}\`; otherwise move these keys to your own $TOOLPLANE_HOME/config.json or drop them`,
  );
}
