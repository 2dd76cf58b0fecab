import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const CLI = path.join(ROOT, "dist", "src", "cli", "main.cjs");

/** Runs the built CLI (npm test builds before vitest runs). */
export function runCli(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {},
) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: opts.env ?? process.env,
    input: opts.input ?? "",
    encoding: "utf8",
    timeout: opts.timeoutMs ?? 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function runJson(args: string[], opts: Parameters<typeof runCli>[1] = {}) {
  const r = runCli([...args, "--json"], opts);
  if (r.code !== 0) throw new Error(`toolplane ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Runs the built CLI without blocking the event loop (for a server that lives in the test's process). */
export function runCliAsync(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: opts.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += c;
    });
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? "");
  });
}
