// Runs the CLI on a pseudo-terminal through util-linux's `script` (stdin, stdout and stderr all a
// TTY), for what the CLI does only for a person at a terminal.
import { spawn, spawnSync } from "node:child_process";
import { CLI } from "./cli.js";

/** Without `script` the terminal tests cannot run. */
export const HAS_SCRIPT = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;
export const TTY_SKIP = "needs `script` (util-linux) for a pseudo-terminal: apt-get install bsdutils";

const shellQuote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
const commandLine = (args: string[]) => [process.execPath, CLI, ...args].map(shellQuote).join(" ");

/** Runs the CLI with no input and returns what it drew. */
export function onTty(args: string[], env: NodeJS.ProcessEnv): string {
  const r = spawnSync("script", ["-qec", commandLine(args), "/dev/null"], {
    env,
    encoding: "utf8",
    input: "",
    timeout: 60_000,
  });
  return r.stdout;
}

/** Runs the CLI, typing `answer` and Enter each time `prompt` appears; `asked` counts the prompts. */
export function answeringOnTty(
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; prompt: string; answer: string },
): Promise<{ code: number | null; output: string; asked: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qec", commandLine(args), "/dev/null"], {
      cwd: opts.cwd,
      env: { ...opts.env, SHELL: "/bin/sh", TERM: "dumb" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    let asked = 0;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the terminal run did not end; it printed: ${output}`));
    }, 30_000);
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const prompts = output.split(opts.prompt).length - 1;
      while (asked < prompts) {
        asked += 1;
        child.stdin.write(`${opts.answer}\r`);
      }
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output, asked });
    });
  });
}
