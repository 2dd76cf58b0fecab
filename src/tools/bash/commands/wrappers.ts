import { has, parseOptions, type StrictSpec, strictOptions } from "../options.js";
import type { Word } from "../words.js";
import { type Handler, literal } from "./site.js";

/** What a wrapper runs: the inner command is the one checked; the wrapper itself needs no rule. */
export interface Unwrapped {
  inner: Word[];
  /** `env NAME=value cmd`: variables the inner command gets. */
  assignments: Word[];
  /** xargs: arguments read from input are appended (or put where the replace string stands). */
  stdinArgs?: boolean;
  replace?: string;
  /** Files the wrapper itself reads (xargs -a). */
  reads: Word[];
}

const WRAPPER_SPECS: Record<string, StrictSpec & { skipFirstOperand?: boolean }> = {
  timeout: {
    flags: "v",
    valued: "sk",
    long: ["preserve-status", "foreground", "verbose"],
    longValued: ["signal", "kill-after"],
    posix: true,
    skipFirstOperand: true,
  },
  nice: { valued: "n", longValued: ["adjustment"], numeric: true, posix: true },
  nohup: { posix: true },
  stdbuf: { valued: "ioe", longValued: ["input", "output", "error"], posix: true },
  setsid: { flags: "cfw", long: ["ctty", "fork", "wait"], posix: true },
  env: { flags: "i0", valued: "u", long: ["ignore-environment", "null"], longValued: ["unset"], posix: true },
  xargs: {
    flags: "0rtx",
    valued: "adEILnPs",
    long: ["null", "no-run-if-empty", "verbose", "exit"],
    longValued: ["arg-file", "delimiter", "eof", "max-lines", "max-args", "max-procs", "max-chars"],
    longOptional: ["replace"],
    posix: true,
  },
};

/**
 * The command a wrapper runs, or why the call must ask (an option the table does not know, such
 * as `env -S`, `env -C` or `xargs -o`); undefined for a name that is not a wrapper.
 */
export function unwrap(name: string, args: readonly Word[]): Unwrapped | { ask: string } | undefined {
  const spec = WRAPPER_SPECS[name];
  if (spec === undefined) return undefined;
  const p = strictOptions(name === "env" ? splitEnv(args) : args, spec);
  if (p.unknown.length > 0)
    return { ask: `${name} ${p.unknown.join(" ")}: an option the classifier does not model` };
  let operands = spec.skipFirstOperand ? p.operands.slice(1) : p.operands;
  const assignments: Word[] = [];
  if (name === "env") {
    while (operands.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(operands[0]!.value ?? "")) {
      assignments.push(operands[0]!);
      operands = operands.slice(1);
    }
    if (operands[0] !== undefined && operands[0].value === undefined)
      return { ask: `env runs a command only known when it runs (${operands[0].raw})` };
  }
  const reads = [...(p.options.get("-a") ?? []), ...(p.options.get("--arg-file") ?? [])].map(literal);
  if (name !== "xargs") return { inner: operands, assignments, reads };
  const replace = [...(p.options.get("-I") ?? []), ...(p.options.get("--replace") ?? [])].map((r) =>
    r === "" ? "{}" : r,
  )[0];
  const inner = operands.length > 0 ? operands : [literal("echo")];
  return replace !== undefined
    ? { inner, assignments, stdinArgs: true, replace, reads }
    : { inner, assignments, stdinArgs: true, reads };
}

/** env's options stop at the first NAME=value as well as at the command. */
function splitEnv(args: readonly Word[]): Word[] {
  const at = args.findIndex((a) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(a.value ?? ""));
  if (at < 0) return [...args];
  return [...args.slice(0, at), literal("--"), ...args.slice(at)];
}

export const wrapperSudo: Handler = (s) => {
  s.ask(`${s.name} runs a command with other privileges`);
  const p = parseOptions(s.args, {
    short: "ugCDhprtTU",
    long: [
      "user",
      "group",
      "close-from",
      "chdir",
      "host",
      "prompt",
      "role",
      "type",
      "command-timeout",
      "other-user",
    ],
    posix: true,
  });
  if (p.operands.length > 0) s.run(p.operands);
};

export const shellC: Handler = (s) => {
  const p = strictOptions(s.args, { flags: "ceuli", valued: "o", posix: true });
  let modelled = true;
  const outside = (reason: string) => {
    modelled = false;
    s.ask(reason);
  };
  if (p.unknown.length > 0)
    outside(`${s.name} ${p.unknown.join(" ")}: an option of the shell the classifier does not model`);
  // a login or interactive shell runs its profile scripts first: programs the line does not name
  if (has(p, "-l")) outside(`${s.name} -l: a login shell runs the profile scripts first`);
  if (has(p, "-i")) outside(`${s.name} -i: an interactive shell runs its start-up file first`);
  const set = p.options.get("-o") ?? [];
  if (set.some((o) => !["pipefail", "errexit", "nounset"].includes(o)))
    outside(`${s.name} -o ${set.join(",")}: a shell option the classifier does not model`);
  // `bash -c 'script' name args`: with -c, the first operand is the script
  if (has(p, "-c")) {
    const script = p.operands[0];
    if (script === undefined) return s.ask(`${s.name} -c without a script`);
    s.script(script);
    // the shell itself runs only the script, whose every command is checked on its own
    if (modelled) s.readOnly(`${s.name} -c: only the script's commands run, each checked on its own`);
    return;
  }
  if (p.operands.length === 0) s.ask(`${s.name} reads the script it runs from its input`);
};
