import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { rgPath } from "@vscode/ripgrep";

/** rg produced more output than the caller may parse: the stream was cut, so it is not parsed. */
export class RawCapError extends Error {
  constructor(readonly limit: number) {
    super(`search output passed ${limit} bytes`);
    this.name = "RawCapError";
  }
}

export interface RgRun {
  /** Each complete line of stdout (without the newline), as raw bytes. */
  lines(): AsyncGenerator<Buffer>;
  /** Bytes of stdout seen so far. */
  readonly bytes: number;
  /** Stops rg (after the cap, or on abort). Safe to call more than once. */
  stop(): void;
  /** Exit code (null when killed) and the first KiB of stderr. */
  done: Promise<{ code: number | null; stderr: string }>;
}

/**
 * Runs the ripgrep binary shipped in @vscode/ripgrep with `--no-config` (a user's ~/.ripgreprc
 * must not change what the model sees) and reads stdout as a stream of lines, so a caller can
 * stop at a cap and kill rg instead of waiting for, and holding, all of its output.
 */
export function runRg(
  args: string[],
  cwd: string,
  maxBytes: number,
  signal?: AbortSignal,
  /** Open files rg inherits as fds 3, 4, ... (it reads them as /dev/fd/3, ...). */
  fds: readonly number[] = [],
): RgRun {
  // the extra fds widen spawn's stdio type; stdout and stderr are still pipes
  const child = spawn(rgPath, ["--no-config", ...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe", ...fds],
  }) as ChildProcessByStdio<null, Readable, Readable>;
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (s: string) => {
    if (stderr.length < 1024) stderr += s;
  });
  let killed = false;
  const stop = () => {
    if (killed) return;
    killed = true;
    child.stdout.destroy();
    child.kill("SIGKILL");
  };
  signal?.addEventListener("abort", stop, { once: true });
  const done = new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      signal?.removeEventListener("abort", stop);
      resolve({ code, stderr: stderr.slice(0, 1024) });
    });
  });
  const run = {
    bytes: 0,
    stop,
    done,
    async *lines(): AsyncGenerator<Buffer> {
      let rest: Buffer | undefined;
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
      if (rest && !killed) yield rest;
    },
  };
  return run;
}
