import { type ChildProcess, spawn } from "node:child_process";
import { CLI } from "../helpers/cli.js";

export interface ServeHttp {
  url: string;
  child: ChildProcess;
  stderr(): string;
  /** The token the server printed, when it generated one. */
  printedToken: string | undefined;
  stop(): Promise<void>;
}

/** Starts `toolplane serve --http` as a process and waits for its address on stderr. */
export async function startServeHttp(
  cwd: string,
  env: NodeJS.ProcessEnv,
  options: { port?: number; args?: string[] } = {},
): Promise<ServeHttp> {
  const child = spawn(
    process.execPath,
    [CLI, "serve", "--http", String(options.port ?? 0), "--cwd", cwd, ...(options.args ?? [])],
    { env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let err = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      // the token line (if any) comes right after the address
      if (m && /\n.*(bearer token|WARNING|must send)[^\n]*\n/.test(err.slice(m.index)))
        resolve(m[1] as string);
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return {
    url,
    child,
    stderr: () => err,
    printedToken: /bearer token \(new for this run\): (\S+)/.exec(err)?.[1],
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
