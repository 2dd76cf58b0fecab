import { strictOptions } from "./options.js";
import type { Word } from "./words.js";

/** Every bash builtin and reserved word that can stand where a command name does. */
const BASH_BUILTINS = new Set([
  ".",
  ":",
  "[",
  "alias",
  "bg",
  "bind",
  "break",
  "builtin",
  "caller",
  "cd",
  "command",
  "compgen",
  "complete",
  "compopt",
  "continue",
  "coproc",
  "declare",
  "dirs",
  "disown",
  "echo",
  "enable",
  "eval",
  "exec",
  "exit",
  "export",
  "false",
  "fc",
  "fg",
  "getopts",
  "hash",
  "help",
  "history",
  "jobs",
  "kill",
  "let",
  "local",
  "logout",
  "mapfile",
  "popd",
  "printf",
  "pushd",
  "pwd",
  "read",
  "readarray",
  "readonly",
  "return",
  "select",
  "set",
  "shift",
  "shopt",
  "source",
  "suspend",
  "test",
  "time",
  "times",
  "trap",
  "true",
  "type",
  "typeset",
  "ulimit",
  "umask",
  "unalias",
  "unset",
  "wait",
  "function",
  "until",
  "while",
  "for",
  "do",
  "done",
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "case",
  "esac",
  "in",
  "{",
  "}",
  "!",
  "[[",
  "]]",
]);

/** Why a builtin is outside the subset (named in the ask). */
const WHY: Record<string, string> = {
  eval: "runs text as a command",
  source: "runs the commands of a file",
  ".": "runs the commands of a file",
  exec: "replaces the shell or opens descriptors",
  command: "bypasses the checks on a name",
  builtin: "bypasses the checks on a name",
  enable: "changes which builtins exist",
  hash: "changes which program a name runs",
  alias: "changes what a name means",
  jobs: "can run a command (jobs -x)",
  trap: "sets commands to run later",
  let: "evaluates arithmetic, which can run commands",
  read: "sets variables from input",
  mapfile: "sets variables from input",
  readarray: "sets variables from input",
  declare: "sets attributes and variables",
  typeset: "sets attributes and variables",
  local: "sets attributes and variables",
  readonly: "sets attributes and variables",
  shopt: "changes how the shell expands words",
  kill: "signals other processes",
  pushd: "changes the directory stack",
  popd: "changes the directory stack",
};

export interface BuiltinSite<T> {
  ask(reason: string): void;
  /** The builtin runs as a command (its own rule decides it), read-only when the form says so. */
  command(readOnly?: string): void;
  /** `cd` (`cd -P`: physical): the shell's state after it. */
  cd(target: Word | undefined, physical: boolean): T;
}

/**
 * The builtins the subset models (echo, printf without -v, true, false, :, pwd, test, cd, exit,
 * set -e/-u/-o pipefail); every other builtin or reserved word asks, named. Returns undefined for
 * a name that is not a builtin (a program), null for one that leaves the shell's state as it was.
 */
export function builtin<T>(name: string, args: Word[], site: BuiltinSite<T>): T | null | undefined {
  if (!BASH_BUILTINS.has(name)) return undefined;
  const none = null;
  switch (name) {
    case "echo":
    case "true":
    case "false":
    case ":":
      site.command(`${name}, prints only`);
      return none;
    case "printf":
      if (/^-[a-zA-Z]*v/.test(args[0]?.value ?? "")) site.ask("printf -v sets a variable");
      else if (args[0]?.value === undefined && args.length > 0)
        site.ask("printf with a format only known when it runs");
      else site.command("printf, prints only");
      return none;
    case "pwd":
      site.command("pwd, prints only");
      return none;
    case "test":
    case "[": {
      if (args.some((a) => a.value === "-v" || a.value === "-R"))
        site.ask(`${name} -v (it evaluates a subscript)`);
      else if (args.some((a) => a.value === undefined && !a.raw.startsWith('"')))
        site.ask(`${name} with an unquoted value only known when it runs (its words could become operators)`);
      else site.command(`${name}, read-only form`);
      return none;
    }
    case "cd": {
      const p = strictOptions(args, { flags: "LPe" });
      // -L and -P together: the last one wins, which the option map does not keep
      if (p.unknown.length > 0 || p.operands.length > 1 || (p.options.has("-L") && p.options.has("-P"))) {
        site.ask(`cd ${args.map((a) => a.raw).join(" ")}: a form the classifier does not model`);
        return site.cd(
          args.find((a) => !a.value?.startsWith("-")),
          false,
        );
      }
      return site.cd(p.operands[0], p.options.has("-P"));
    }
    case "exit":
      if (args.length > 1 || (args[0] !== undefined && !/^\d+$/.test(args[0].value ?? "")))
        site.ask("exit with a status only known when it runs");
      return none;
    case "set": {
      const ok = args.every((a, i) => {
        const v = a.value ?? "";
        if (/^[-+][eu]+$/.test(v)) return true;
        if (v === "-o" || v === "+o")
          return ["pipefail", "errexit", "nounset"].includes(args[i + 1]?.value ?? "");
        return ["pipefail", "errexit", "nounset"].includes(v) && /^[-+]o$/.test(args[i - 1]?.value ?? "");
      });
      if (!ok || args.length === 0)
        site.ask(
          `set ${args.map((a) => a.raw).join(" ")}: shell options other than -e, -u and -o pipefail are not modelled`,
        );
      return none;
    }
    default:
      site.ask(`bash builtin ${name}${WHY[name] ? ` (${WHY[name]})` : ""}`);
      return none;
  }
}
