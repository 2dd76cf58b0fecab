import { INSTALL_HINT, type SandboxMode, sandboxSupport } from "../tools/sandbox/bwrap.js";
import { type DoctorCheck, type DoctorContext, row } from "./types.js";

/**
 * bash runs under bubblewrap unless tools.sandbox is off: without it every command must ask
 * first, which a harness running unattended will see as denials.
 */
export function sandboxCheck(ctx: DoctorContext): DoctorCheck {
  const mode = ctx.plane.config.get("tools.sandbox") as SandboxMode;
  const network = ctx.plane.config.get("tools.sandboxNetwork") === true;
  if (mode === "off") {
    return row(
      "tools",
      "sandbox",
      "tools.sandbox is off: bash commands run unsandboxed, as configured",
      [],
      "",
    );
  }
  const support = sandboxSupport();
  const summary = support.available
    ? `bash commands run under bubblewrap (${support.binary}): ${mode}, ${network ? "with" : "no"} network`
    : `tools.sandbox is ${mode}, but bash commands cannot be sandboxed here, so each one asks first`;
  return row(
    "tools",
    "sandbox",
    summary,
    support.available ? [] : [support.reason ?? "bubblewrap is not available"],
    `${INSTALL_HINT}; or set tools.sandbox=off to run commands unsandboxed on purpose`,
  );
}
