import { childProcess } from "../util/child-process.js";

/** The most stdout read from a hook: its JSON answer may carry a whole file's new content. */
export const HOOK_STDOUT_MAX_BYTES = 4 * 1024 * 1024;
/** The most stderr kept (what reaches the model of it is cut shorter still). */
export const HOOK_STDERR_MAX_BYTES = 64 * 1024;
/** After the hook exits, how long a process it left holding its output is waited for. */
const DRAIN_MS = 1000;

export interface CommandHookRun {
  command: string;
  /** The JSON input, written to its stdin. */
  input: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface CommandHookExit {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Set when no answer can be read: over its timeout, stdout over the cap, could not start. */
  failed?: string;
}

/**
 * Runs one command hook as Claude Code does, `/bin/sh -c COMMAND` with the input JSON on stdin,
 * in its own process group: over its timeout (or when the turn is cancelled, or when it writes
 * more stdout than HOOK_STDOUT_MAX_BYTES) the whole group is killed, and when it exits whatever
 * it left running in its group is ended too. Memory is bounded by the two caps. Never rejects.
 */
export function runCommandHook(run: CommandHookRun): Promise<CommandHookExit> {
  return new Promise((resolve) => {
    const out = new Capped(HOOK_STDOUT_MAX_BYTES);
    const err = new Capped(HOOK_STDERR_MAX_BYTES);
    let failed: string | undefined;
    let exitCode: number | null = null;
    let done = false;
    let drain: NodeJS.Timeout | undefined;
    let child: import("node:child_process").ChildProcessWithoutNullStreams;
    try {
      child = childProcess().spawn("/bin/sh", ["-c", run.command], {
        cwd: run.cwd,
        env: run.env,
        detached: true, // its own process group: one kill reaches everything it started
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (error) {
      resolve({
        exitCode: null,
        stdout: "",
        stderr: "",
        failed: `could not start: ${(error as Error).message}`,
      });
      return;
    }
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(drain);
      run.signal?.removeEventListener("abort", onAbort);
      for (const s of [child.stdin, child.stdout, child.stderr]) s.destroy();
      const exit: CommandHookExit = {
        exitCode,
        stdout: out.text(),
        stderr: err.text() + (err.cut ? `\n[stderr cut at ${HOOK_STDERR_MAX_BYTES} bytes]` : ""),
      };
      if (failed !== undefined) exit.failed = failed;
      resolve(exit);
    };
    const stop = (why: string) => {
      failed ??= why;
      killGroup();
      // a process that left the group (setsid) may still hold the pipes: do not wait for it
      drain ??= setTimeout(finish, DRAIN_MS);
    };
    const seconds = run.timeoutMs / 1000;
    const timer = setTimeout(
      () =>
        stop(`did not finish within ${seconds} s (its timeout); it was stopped and its process group killed`),
      run.timeoutMs,
    );
    const onAbort = () => stop("the turn was cancelled; it was stopped");
    if (run.signal?.aborted) onAbort();
    else run.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout.on("data", (chunk: Buffer) => {
      if (!out.add(chunk))
        stop(
          `wrote more than ${HOOK_STDOUT_MAX_BYTES} bytes to stdout; it was stopped and its answer not read`,
        );
    });
    child.stderr.on("data", (chunk: Buffer) => err.add(chunk));
    for (const s of [child.stdin, child.stdout, child.stderr]) s.on("error", () => {});
    child.stdin.end(run.input);
    child.on("error", (error) => {
      failed ??= `could not start: ${error.message}`;
      finish();
    });
    child.on("exit", (code) => {
      exitCode = code;
      // what it left running in its group ends with it, so its pipes close
      killGroup();
      drain ??= setTimeout(finish, DRAIN_MS);
    });
    child.on("close", finish);
  });
}

/** Chunks up to a byte cap; past it, add() says so and keeps nothing more. */
class Capped {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  cut = false;
  constructor(private readonly max: number) {}

  add(chunk: Buffer): boolean {
    if (this.cut) return false;
    if (this.bytes + chunk.length > this.max) {
      this.chunks.push(chunk.subarray(0, this.max - this.bytes));
      this.bytes = this.max;
      this.cut = true;
      return false;
    }
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    return true;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}
