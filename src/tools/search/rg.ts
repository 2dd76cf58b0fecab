import type { ChildProcessByStdio } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import type { Readable } from "node:stream";
import { childProcess } from "../../util/child-process.js";
import { importModule } from "../../util/import-module.js";
import { describeFsError, FileToolError } from "../shared/errors.js";

/** rg produced more output than the caller may parse: the stream was cut, so it is not parsed. */
export class RawCapError extends Error {
  constructor(readonly limit: number) {
    super(`search output passed ${limit} bytes`);
    this.name = "RawCapError";
  }
}

/** rg could not be started at all (its folder is gone or unreadable, or the binary is missing). */
export class RgStartError extends Error {
  constructor(
    readonly errno: NodeJS.ErrnoException,
    readonly cwd: string,
  ) {
    super(`ripgrep could not start: ${errno.message}`);
    this.name = "RgStartError";
  }
}

/**
 * @vscode/ripgrep resolves its platform package when it is imported, and throws when that package
 * is missing: it is imported on the first search, so importing toolplane neither pays for it nor
 * fails without it. A failed import fails each search with an RgStartError that says so.
 */
let ripgrep: Promise<string> | undefined;
let ripgrepFailure: string | undefined;
let ripgrepResolved: string | undefined;
function ripgrepPath(): Promise<string> {
  ripgrep ??= importModule<typeof import("@vscode/ripgrep")>("@vscode/ripgrep").then(
    (m) => {
      ripgrepResolved = m.rgPath;
      return m.rgPath;
    },
    (err: Error) => {
      ripgrepFailure = err.message;
      throw err;
    },
  );
  return ripgrep;
}

/**
 * The first fd number rg inherits open files on. Three digits from here on, so `/dev/fd/NNN`
 * names sort (as rg --sort=path sorts them) in the order the files were given.
 */
export const FD_BASE = 100;
/** Open files one rg run can inherit (fds 100 to 355): one run holds grep's default cap of files. */
export const MAX_FDS = 256;

/** The name rg reads the i-th inherited file by. */
export const fdName = (i: number) => `/dev/fd/${FD_BASE + i}`;

export interface RgRun {
  /** Each complete line of stdout (without the newline), as raw bytes. Throws RgStartError. */
  lines(): AsyncGenerator<Buffer>;
  /** Bytes of stdout seen so far. */
  readonly bytes: number;
  /** Stops rg (after the cap, or on abort). Safe to call more than once. */
  stop(): void;
  /** Exit code (null when killed or never started), the first KiB of stderr, and a start failure. Never rejects. */
  done: Promise<{ code: number | null; stderr: string; error?: RgStartError }>;
}

/**
 * Runs the ripgrep binary shipped in @vscode/ripgrep with `--no-config` (a user's ~/.ripgreprc
 * must not change what the model sees) and reads stdout as a stream of lines, so a caller can
 * stop at a cap and kill rg instead of waiting for, and holding, all of its output.
 *
 * Nothing here can throw outside the caller's await: a failed start (a missing or unreadable
 * working folder, a missing binary) is kept and thrown by lines() as an RgStartError, and every
 * stream gets an error listener, so no 'error' event or rejected promise goes unhandled (either
 * would take the whole process down, and a harness or `toolplane serve` with it).
 */
export function runRg(
  args: string[],
  cwd: string,
  maxBytes: number,
  signal?: AbortSignal,
  /** Open files rg inherits as fds 100, 101, ... (it reads them as fdName(0), fdName(1), ...). */
  fds: readonly number[] = [],
): RgRun {
  if (fds.length > MAX_FDS) throw new Error(`at most ${MAX_FDS} open files per ripgrep run`);
  const stdio: Array<"ignore" | "pipe" | number> = ["ignore", "pipe", "pipe"];
  // the inherited files go at fd 100 on; a run without any has no need of the 97 empty places
  if (fds.length > 0) {
    while (stdio.length < FD_BASE) stdio.push("ignore");
    stdio.push(...fds);
  }
  let startError: RgStartError | undefined;
  let child: ChildProcessByStdio<null, Readable, Readable> | undefined;
  let stderr = "";
  let killed = false;
  const started = ripgrepPath().then(
    (rgPath) => {
      if (killed) return;
      try {
        // the extra fds widen spawn's stdio type; stdout and stderr are still pipes
        child = childProcess().spawn(rgPath, ["--no-config", ...args], { cwd, stdio }) as ChildProcessByStdio<
          null,
          Readable,
          Readable
        >;
      } catch (err) {
        startError = new RgStartError(err as NodeJS.ErrnoException, cwd);
      }
    },
    (err) => {
      startError = new RgStartError(err as NodeJS.ErrnoException, cwd);
    },
  );
  const stop = () => {
    if (killed) return;
    killed = true;
    child?.stdout.destroy();
    child?.kill("SIGKILL");
  };
  type Done = { code: number | null; stderr: string; error?: RgStartError };
  const done = started.then(
    () =>
      new Promise<Done>((resolve) => {
        if (!child) {
          resolve({ code: null, stderr: "", ...(startError ? { error: startError } : {}) });
          return;
        }
        child.stderr.setEncoding("utf8");
        child.stderr.on("data", (s: string) => {
          if (stderr.length < 1024) stderr += s;
        });
        // a pipe error (the child died, the pipe was destroyed) ends the stream; it is not a result
        child.stderr.on("error", () => {});
        child.stdout.on("error", () => {});
        child.on("error", (err) => {
          startError ??= new RgStartError(err as NodeJS.ErrnoException, cwd);
          // 'close' may never follow an error from spawn itself
          if (child!.pid === undefined) finish(null);
        });
        let finished = false;
        const finish = (code: number | null) => {
          if (finished) return;
          finished = true;
          signal?.removeEventListener("abort", stop);
          resolve({ code, stderr: stderr.slice(0, 1024), ...(startError ? { error: startError } : {}) });
        };
        child.on("close", (code) => finish(code));
      }),
  );
  if (signal?.aborted) stop();
  else signal?.addEventListener("abort", stop, { once: true });
  const run = {
    bytes: 0,
    stop,
    done,
    async *lines(): AsyncGenerator<Buffer> {
      await started;
      if (!child) {
        if (startError) throw startError;
        return; // stopped before it started
      }
      let rest: Buffer | undefined;
      try {
        for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
          run.bytes += chunk.length;
          if (run.bytes > maxBytes) {
            stop();
            throw new RawCapError(maxBytes);
          }
          let buf = rest ? Buffer.concat([rest, chunk]) : chunk;
          let from = 0;
          for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, from)) {
            yield buf.subarray(from, nl);
            from = nl + 1;
          }
          buf = buf.subarray(from);
          rest = buf.length > 0 ? Buffer.from(buf) : undefined;
          if (killed) return;
        }
      } catch (err) {
        // a destroyed stdout (stop) ends the lines; anything else is the caller's
        if (err instanceof RawCapError) throw err;
        if (!killed && startError === undefined) throw err;
      }
      if (child.pid === undefined) await done; // a failed start: its 'error' may come after stdout ends
      if (startError) throw startError;
      if (rest && !killed) yield rest;
    },
  };
  return run;
}

/**
 * One line for the model about a failed start. spawn says ENOENT both for a missing binary and
 * a missing working folder, so which one it was is looked up.
 */
export function describeRgStart(err: RgStartError, cwdShown: string): FileToolError {
  if (ripgrepFailure !== undefined) {
    return new FileToolError(
      `the search could not start: ripgrep is missing (${ripgrepFailure}); reinstall @vscode/ripgrep`,
    );
  }
  const rgPath = ripgrepResolved;
  try {
    if (rgPath !== undefined) accessSync(rgPath, constants.X_OK);
  } catch {
    return new FileToolError(
      `the search could not start: ripgrep is missing or not executable at ${rgPath} (reinstall @vscode/ripgrep)`,
    );
  }
  try {
    if (!statSync(err.cwd).isDirectory()) return describeFsError({ code: "ENOTDIR" }, cwdShown);
  } catch (statError) {
    return describeFsError(statError, cwdShown);
  }
  return describeFsError(err.errno, cwdShown);
}
