import { existsSync } from "node:fs";
import { INSTALL_HINT, type SandboxMode, sandboxSupport } from "../tools/sandbox/bwrap.js";
import { expandPath } from "../tools/sandbox/mounts.js";
import { homeDir } from "../util/paths.js";
import { type DoctorCheck, type DoctorContext, row } from "./types.js";

/**
 * bash runs under bubblewrap unless tools.sandbox is off: without it every command must ask
 * first, which a harness running unattended will see as denials, and the second wall (a
 * read-only sandbox for what runs unasked, the home folder's files out of sight) is not there.
 */
export function sandboxCheck(ctx: DoctorContext): DoctorCheck {
  const config = ctx.plane.config;
  const mode = config.get("tools.sandbox") as SandboxMode;
  const network = config.get("tools.sandboxNetwork") === true;
  if (mode === "off") {
    return row(
      "tools",
      "sandbox",
      "tools.sandbox is off: bash commands run unsandboxed, as configured; the permission check alone holds (a command that needs no approval can write what its program writes, and an approved one reads the whole disk, ~/.ssh included)",
      [],
      "",
    );
  }
  const support = sandboxSupport();
  const named = [
    ...((config.get("tools.sandboxToolchains") as string[] | undefined) ?? []),
    ...((config.get("tools.sandboxReadable") as string[] | undefined) ?? []),
  ];
  const home = homeDir(process.env);
  const shown = named.flatMap((p) => expandPath(p, home, process.env)).filter((p) => existsSync(p));
  const writes =
    mode === "read-only"
      ? "every command read-only (tools.sandbox is read-only)"
      : `a command that needs no approval read-only (its own /tmp aside, no network, the ask-first files hidden), an approved one or one a rule lets write with the workspace writable (${network ? "with" : "no"} network)`;
  const summary = support.available
    ? `bash commands run under bubblewrap (${support.binary}): ${writes}; each sees the system folders, the workspace and ${shown.length} toolchain or named path${shown.length === 1 ? "" : "s"} of tools.sandboxToolchains and tools.sandboxReadable, and no other file of the home folder or credential store`
    : `tools.sandbox is ${mode}, but bash commands cannot be sandboxed here, so each one asks first, and an approved one runs unsandboxed (it reads the whole disk): the permission check alone holds`;
  return row(
    "tools",
    "sandbox",
    summary,
    support.available ? [] : [support.reason ?? "bubblewrap is not available"],
    `${INSTALL_HINT}; or set tools.sandbox=off to run commands unsandboxed on purpose`,
  );
}
