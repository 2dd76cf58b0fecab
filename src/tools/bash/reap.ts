import { existsSync } from "node:fs";
import { childProcess } from "../../util/child-process.js";

let probing: Promise<readonly string[] | undefined> | undefined;

/**
 * Unsandboxed, a command runs as PID 1 of its own PID namespace (`unshare` from util-linux), so
 * that when it ends every process it started ends too, `setsid` and double-forked ones included
 * (a process group does not hold them). Probed once per process, by running `/bin/true` under
 * each form; where no form works (not Linux, no unshare, namespaces disabled) undefined, and the
 * process group is what ends them. The probe runs in the background: the bash tool starts it when
 * it checks a call's permissions, so a process's first command does not wait for it after that.
 */
export function pidNamespacePrefix(): Promise<readonly string[] | undefined> {
  probing ??= probe();
  return probing;
}

async function probe(): Promise<readonly string[] | undefined> {
  if (process.platform !== "linux") return undefined;
  const binary = ["/usr/bin/unshare", "/bin/unshare"].find((b) => existsSync(b));
  if (binary === undefined) return undefined;
  const common = ["--pid", "--fork", "--kill-child", "--mount-proc"];
  const forms =
    process.getuid?.() === 0 ? [[binary, ...common]] : [[binary, "--user", "--map-current-user", ...common]];
  for (const form of forms) if (await runs(form)) return form;
  return undefined;
}

/** True when `/bin/true` under the form exits 0 (within 5 s). */
function runs(form: readonly string[]): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      const child = childProcess().spawn(form[0]!, [...form.slice(1), "/bin/true"], {
        timeout: 5_000,
        stdio: "ignore",
      });
      child.on("error", () => resolve(false));
      child.on("close", (code) => resolve(code === 0));
    } catch {
      // spawn can throw at once (out of processes): no form then, never a rejected probe, which
      // would end the process as an unhandled rejection (the check starts it without awaiting)
      resolve(false);
    }
  });
}
