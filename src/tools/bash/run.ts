import type { ChildProcess } from "node:child_process";
import { openSync } from "node:fs";
import type { Readable } from "node:stream";
import type { OutputStream } from "../../declare/types.js";
import { childProcess } from "../../util/child-process.js";
import { bwrapArgs, type SandboxPlan } from "../sandbox/bwrap.js";

export interface ShellRun {
  command: string;
  cwd: string;
  /** Where stdout and stderr go, interleaved as a terminal shows them. */
  stream: OutputStream;
  signal: AbortSignal;
  /** bwrap and its plan; undefined runs unsandboxed. */
  sandbox?: { binary: string; plan: SandboxPlan };
  /** The command's environment, built (environment.ts). */
  env: NodeJS.ProcessEnv;
  /** Unsandboxed: the command's own PID namespace (`unshare`), so nothing it starts outlives it. */
  pidNamespace?: readonly string[];
}

export interface ShellExit {
  exitCode: number | null;
  signal: string | null;
  /** The directory the shell ended in (undefined when the command replaced the EXIT trap). */
  cwd: string | undefined;
}

// The command runs after two lines of our own: stderr joins stdout (one stream, in the order a
// terminal shows), and an EXIT trap reports the final directory on fd 3 so the next call starts there.
const PRELUDE = 'exec 2>&1\ntrap \'builtin printf "%s\\0" "$PWD" 2>/dev/null >&3\' EXIT\n';

/**
 * The most bytes Linux copies into one argument of a new program (MAX_ARG_STRLEN, 32 pages of
 * 4 KiB, the closing NUL included). The command goes to bash as one (`bash -c SCRIPT`), so a
 * longer one fails at spawn with E2BIG, which tells the model nothing it can act on.
 */
export const ARG_MAX_BYTES = 131_072;

/** Why bash cannot be given this command in one argument, or undefined when it can. */
export function commandTooLong(command: string): string | undefined {
  const bytes = Buffer.byteLength(PRELUDE) + Buffer.byteLength(command) + 1;
  if (bytes <= ARG_MAX_BYTES) return undefined;
  const size = Buffer.byteLength(command).toLocaleString("en-US");
  return (
    `the command is ${size} bytes, and Linux passes one argument of at most ${ARG_MAX_BYTES.toLocaleString("en-US")} ` +
    "bytes to a program (bash runs it as `bash -c COMMAND`): write the script to a file with the write " +
    "tool and run `bash FILE`, or split it into several calls"
  );
}

/**
 * Runs one command line with bash, in its own process group (under bwrap when sandboxed), streams
 * its output through the host's collector with back-pressure, and kills the whole group on abort
 * (timeout, output cap, the user's stop) and when the shell exits (background jobs end with it).
 */
export async function runShell(run: ShellRun): Promise<ShellExit> {
  const script = `${PRELUDE}${run.command}`;
  const env: NodeJS.ProcessEnv = {
    ...run.env,
    PAGER: "cat",
    GIT_PAGER: "cat",
    GIT_TERMINAL_PROMPT: "0",
  };
  const [file, argv]: [string, string[]] = run.sandbox
    ? [run.sandbox.binary, [...bwrapArgs(run.sandbox.plan), "--", "/bin/bash", "-c", script]]
    : run.pidNamespace
      ? [run.pidNamespace[0]!, [...run.pidNamespace.slice(1), "/bin/bash", "-c", script]]
      : ["/bin/bash", ["-c", script]];
  const child = childProcess().spawn(file, argv, {
    cwd: run.cwd,
    env,
    detached: true, // its own process group: one kill reaches every process it started
    // bwrap reads its empty file (what covers a hidden one) from EMPTY_FD; bwrap closes it before the command runs
    stdio: run.sandbox ? ["ignore", "pipe", "pipe", "pipe", emptyFd()] : ["ignore", "pipe", "pipe", "pipe"],
  });
  const killGroup = () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  const onAbort = () => killGroup();
  if (run.signal.aborted) killGroup();
  run.signal.addEventListener("abort", onAbort, { once: true });

  let finalDir = "";
  const report = child.stdio[3] as Readable;
  report.setEncoding("utf8");
  report.on("data", (s: string) => {
    if (finalDir.length < 8192) finalDir += s;
  });
  report.on("error", () => {});
  const reported = new Promise<void>((resolve) => report.once("close", () => resolve()));

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  // when the shell exits, whatever it left in the background is stopped, so its pipes close
  exited.then(killGroup, () => {});
  try {
    // bwrap's own complaints arrive on stderr; the command's stderr already joined stdout
    await Promise.all([pump(child.stdout!, run.stream), pump(child.stderr!, run.stream)]);
    const { code, signal } = await exited;
    await reported;
    const nul = finalDir.indexOf("\0");
    return { exitCode: code, signal, cwd: nul > 0 ? finalDir.slice(0, nul) : undefined };
  } finally {
    run.signal.removeEventListener("abort", onAbort);
    killGroup();
    destroy(child);
  }
}

let devNull: number | undefined;

/** /dev/null, opened once per process and kept: the sandbox's source of an empty file (mounts.ts EMPTY_FD). */
function emptyFd(): number {
  devNull ??= openSync("/dev/null", "r");
  return devNull;
}

/** Copies a pipe into the sink, awaiting each write: a slow sink holds the command back. */
async function pump(from: Readable, to: OutputStream): Promise<void> {
  for await (const chunk of from as AsyncIterable<Buffer>) await to.write(chunk);
}

function destroy(child: ChildProcess): void {
  for (const s of child.stdio) s?.destroy();
}
