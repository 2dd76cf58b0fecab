import { spawn } from "node:child_process";

/**
 * Runs a program to its end, or kills it (SIGKILL) at the timeout. Not spawnSync: the strace
 * differential spawned one per line synchronously, which kept the test worker's event loop busy
 * for a whole corpus (vitest's "Timeout calling onTaskUpdate" under load), and lines in separate
 * folders can run side by side (differential-pool.ts).
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
