import path from "node:path";

/** Words a shell runs itself: nothing to find on disk. */
const BUILTINS = new Set([
  ":",
  ".",
  "true",
  "false",
  "exit",
  "echo",
  "printf",
  "test",
  "[",
  "cd",
  "read",
  "set",
  "export",
  "exec",
  "command",
  "eval",
  "source",
]);

const KEYWORDS = new Set(["if", "for", "while", "until", "case", "select", "function", "time"]);

/** Interpreters whose first argument is the script that runs (checked to exist too). */
const INTERPRETERS = new Set(["sh", "bash", "zsh", "dash", "python", "python3", "node", "ruby", "perl"]);

/** What a hook command starts, as far as it can be read without a shell. */
export type CommandTarget =
  | { kind: "builtin"; program: string }
  /** `program`: an absolute path, or a name the shell finds on PATH; `script`: an interpreter's script. */
  | { kind: "program"; program: string; script?: string }
  | { kind: "unknown"; why: string };

/**
 * Reads the first words of a hook command as `sh -c` would, only as far as that can be done
 * without running anything: plain characters, single quotes, double quotes, `~/` and the
 * variables the hook is given or surely has ($CLAUDE_PROJECT_DIR, $TOOLPLANE_PROJECT_DIR, $HOME).
 * Anything else (another variable, `$(...)`, a backslash, a glob, a keyword, an assignment) is
 * unknown. Paths are resolved from `cwd`, where the hook runs. Doctor checks what it finds; the
 * session's policy protects it (a hook runs outside the sandbox: its script must not be the
 * model's to rewrite).
 */
export function commandTarget(
  command: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): CommandTarget {
  const words = leadingWords(command, env, 2);
  if (typeof words === "string") return { kind: "unknown", why: words };
  const [program, script] = words;
  if (program === undefined) return { kind: "unknown", why: "no command" };
  if (KEYWORDS.has(program)) return { kind: "unknown", why: `it starts with the shell keyword ${program}` };
  if (BUILTINS.has(program)) return { kind: "builtin", program };
  const target: CommandTarget = {
    kind: "program",
    program: program.includes("/") ? path.resolve(cwd, program) : program,
  };
  if (INTERPRETERS.has(path.basename(program)) && script !== undefined && !script.startsWith("-"))
    target.script = path.resolve(cwd, script);
  return target;
}

/** The files a hook command runs that a write could change: its program (given as a path) and its script. */
export function commandFiles(
  command: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string[] {
  const t = commandTarget(command, env, cwd);
  if (t.kind !== "program") return [];
  return [...(path.isAbsolute(t.program) ? [t.program] : []), ...(t.script !== undefined ? [t.script] : [])];
}

const KNOWN_VARIABLES = ["CLAUDE_PROJECT_DIR", "TOOLPLANE_PROJECT_DIR", "HOME"];
const PLAIN = /[A-Za-z0-9_./+:,@%=-]/;

/** The first `count` words of the command, or why they cannot be read without a shell. */
function leadingWords(
  command: string,
  env: Readonly<Record<string, string | undefined>>,
  count: number,
): string[] | string {
  const words: string[] = [];
  let i = 0;
  const text = command.trim();
  while (words.length < count && i < text.length) {
    let word = "";
    if (text.startsWith("~/", i) && env.HOME !== undefined) {
      word = env.HOME;
      i += 1;
    }
    while (i < text.length && !/\s/.test(text[i]!)) {
      const c = text[i]!;
      if (c === "'") {
        const end = text.indexOf("'", i + 1);
        if (end < 0) return "an unclosed quote";
        word += text.slice(i + 1, end);
        i = end + 1;
      } else if (c === '"') {
        const end = text.indexOf('"', i + 1);
        if (end < 0) return "an unclosed quote";
        const inner = expand(text.slice(i + 1, end), env);
        if (inner === undefined) return "shell syntax inside double quotes";
        word += inner;
        i = end + 1;
      } else if (c === "$") {
        const m = /^\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/.exec(text.slice(i));
        const name = m?.[1] ?? m?.[2];
        if (!m || name === undefined || !KNOWN_VARIABLES.includes(name) || env[name] === undefined)
          return `${m ? `$${name}` : "a $ expansion"} is known only when the hook runs`;
        word += env[name];
        i += m[0].length;
      } else if (PLAIN.test(c)) {
        word += c;
        i++;
      } else {
        return `the shell syntax ${JSON.stringify(c)}`;
      }
    }
    if (words.length === 0 && /^[A-Za-z_]\w*=/.test(word)) return "it starts with a variable assignment";
    words.push(word);
    while (i < text.length && /\s/.test(text[i]!)) i++;
  }
  return words;
}

/** Double-quoted text with only plain characters and known variables, expanded; else undefined. */
function expand(inner: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (/[`\\!]/.test(inner)) return undefined;
  let ok = true;
  const out = inner.replace(/\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))|\$/g, (whole, a, b) => {
    const name = (a ?? b) as string | undefined;
    if (name === undefined || !KNOWN_VARIABLES.includes(name) || env[name] === undefined) {
      ok = false;
      return whole;
    }
    return env[name]!;
  });
  return ok ? out : undefined;
}
