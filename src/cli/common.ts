import { type Command, Option } from "commander";
import { Toolplane } from "../assemble/index.js";
import { progress } from "../util/progress.js";

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

export function examples(cmd: Command, lines: string[]): Command {
  return cmd.addHelpText("after", `\nExamples:\n${lines.map((l) => `  $ ${l}`).join("\n")}\n`);
}

export async function openToolplane(opts: CommonOptions): Promise<Toolplane> {
  const open: Parameters<typeof Toolplane.open>[0] = {
    cwd: opts.cwd ?? process.cwd(),
    set: opts.set ?? [],
    log: say,
    // drawn only when stderr is a terminal
    progress: (label) => progress(label),
  };
  if (opts.scope !== undefined) open.scope = opts.scope;
  return Toolplane.open(open);
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
