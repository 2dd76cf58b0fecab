import { spawn } from "node:child_process";

/**
 * Runs a program to its end, or kills it (SIGKILL) at the timeout. Not spawnSync: lines in
 * separate folders run side by side (differential-pool.ts), and the test worker's event loop is
 * not held for the minute a corpus takes under load.
 */
export function runKilledAt(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
