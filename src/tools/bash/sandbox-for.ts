import { type SandboxMode, sandboxSupport } from "../sandbox/bwrap.js";

// Apart from the command analysis (needs.ts) so that the bash tool can read it before that chunk
// loads: an unsandboxed call starts the PID-namespace probe first, and the probe's fork and the
// analysis's loading then overlap (see tool.ts).
/** The sandbox a command would run under here: the configured mode, and whether bwrap can give it. */
export function sandboxFor(config: Readonly<Record<string, unknown>>): {
  mode: SandboxMode;
  network: boolean;
  active: boolean;
  reason?: string;
} {
  const mode = (config["tools.sandbox"] as SandboxMode | undefined) ?? "workspace-write";
  const network = config["tools.sandboxNetwork"] === true;
  if (mode === "off") return { mode, network, active: false };
  const support = sandboxSupport();
  return support.available
    ? { mode, network, active: true }
    : { mode, network, active: false, reason: support.reason ?? "bubblewrap is not available" };
}
