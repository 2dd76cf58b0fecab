import { type Command, Option } from "commander";

/** Bad usage: exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export interface CommonOptions {
  cwd?: string;
  set: string[];
  json?: boolean;
  scope?: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** Options every command takes. */
export function withCommon(cmd: Command, opts: { scope?: boolean } = {}): Command {
  cmd
    .option("--cwd <dir>", "working directory to act for (default: the current one)")
    .option(
      "--set <key=value>",
      "set a configuration key for this run (repeatable); VALUE is JSON when it parses",
      collect,
      [],
    )
    .option("--json", "print one JSON document on stdout and nothing else");
  if (opts.scope !== false) {
    cmd.addOption(
      new Option("--scope <chain>", "scope chain, nearest first, e.g. 'session-1>agent:reviewer'"),
    );
  }
  return cmd;
}

/**
 * A command's action, loaded when the command runs: `--help` and every other command stay free of
 * the modules it needs (the definition in commands/ is cheap; the work is in actions/).
 */
export function lazyAction<A extends unknown[]>(
  load: () => Promise<{ action: (...args: A) => void | Promise<void> }>,
): (...args: A) => Promise<void> {
  return async (...args) => (await load()).action(...args);
}

export function examples(cmd: Command, lines: string[]): Command {
  return cmd.addHelpText("after", `\nExamples:\n${lines.map((l) => `  $ ${l}`).join("\n")}\n`);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printJsonLine(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** For people: stderr, so stdout stays the command's output. */
export function say(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** A listen error as the person who chose the port with `flag` should read it. */
export function portError(error: unknown, flag: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== "EADDRINUSE" && code !== "EACCES") return error;
  return new Error(
    `${(error as Error).message}: choose another with ${flag} PORT, or ${flag} 0 for a free one`,
  );
}
