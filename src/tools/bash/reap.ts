import { existsSync } from "node:fs";
import { childProcess } from "../../util/child-process.js";

let chosen: readonly string[] | null | undefined;

/**
 * Unsandboxed, a command runs as PID 1 of its own PID namespace (`unshare` from util-linux), so
 * that when it ends every process it started ends too, `setsid` and double-forked ones included
 * (a process group does not hold them). Probed once per process; where no form works (not Linux,
 * no unshare, namespaces disabled) undefined, and the process group is what ends them.
 */
export function pidNamespacePrefix(): readonly string[] | undefined {
  if (chosen !== undefined) return chosen ?? undefined;
  chosen = null;
  if (process.platform !== "linux") return undefined;
  const binary = ["/usr/bin/unshare", "/bin/unshare"].find((b) => existsSync(b));
  if (binary === undefined) return undefined;
  const common = ["--pid", "--fork", "--kill-child", "--mount-proc"];
  const forms =
    process.getuid?.() === 0 ? [[binary, ...common]] : [[binary, "--user", "--map-current-user", ...common]];
  for (const form of forms) {
    const r = childProcess().spawnSync(form[0]!, [...form.slice(1), "/bin/true"], {
      timeout: 5_000,
      stdio: "ignore",
    });
    if (r.status === 0) {
      chosen = form;
      break;
    }
  }
  return chosen ?? undefined;
}
