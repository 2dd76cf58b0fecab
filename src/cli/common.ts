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
 * The options every command shares, on the program too, so they may come before the command
 * (`toolplane --cwd DIR catalog`). Commander then parses them at the program wherever they stand;
 * lazyAction hands them to the command (see withGlobals).
 */
export function withGlobalOptions(program: Command): Command {
  return program
    .option("--cwd <dir>", "working directory to act for (default: the current one)")
    .option("--set <key=value>", "set a configuration key for this run (repeatable)", (v, prev?: string[]) =>
      collect(v, prev ?? []),
    )
    .option("--json", "print one JSON document on stdout and nothing else")
    .option("--scope <chain>", "scope chain, nearest first, e.g. 'session-1>agent:reviewer'");
}

/**
 * A command's options with the shared ones the program parsed. An option the command does not
 * take (`--scope` for config) is bad usage, wherever it was written.
 */
export function withGlobals(command: Command): Record<string, unknown> {
  const out: Record<string, unknown> = { ...command.opts() };
  const accepted = new Set<string>();
  let root = command;
  for (let c: Command | null = command; c; c = c.parent) {
    if (!c.parent) {
      root = c;
      break;
    }
    for (const o of c.options) accepted.add(o.attributeName());
    if (c !== command) Object.assign(out, { ...c.opts(), ...out });
  }
  if (root === command) return out;
  for (const [key, value] of Object.entries(root.opts())) {
    const given = Array.isArray(value) ? value.length > 0 : value !== undefined;
    if (!given) continue;
    if (!accepted.has(key)) throw new UsageError(`toolplane ${commandPath(command)} does not take --${key}`);
    out[key] = Array.isArray(value) ? [...value, ...((out[key] as unknown[]) ?? [])] : value;
  }
  return out;
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/**
 * A command's action, loaded when the command runs: `--help` and every other command stay free of
 * the modules it needs (the definition in commands/ is cheap; the work is in actions/).
 */
export function lazyAction<A extends unknown[]>(
  load: () => Promise<{ action: (...args: A) => void | Promise<void> }>,
): (...args: A) => Promise<void> {
  return async (...args) => {
    // commander calls an action with (...arguments, options, command)
    const command = args[args.length - 1] as Command;
    args[args.length - 2] = withGlobals(command);
    return (await load()).action(...args);
  };
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
