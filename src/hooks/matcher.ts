import { createRequire } from "node:module";
import type { RE2JS as RE2JSClass } from "re2js";

/** A matcher is at most this long (a settings file's matcher is a few names). */
export const MATCHER_MAX_CHARS = 1024;

/**
 * Claude Code's built-ins and the toolplane tool that does the same job: a matcher naming one
 * also matches toolplane's (`Bash` runs on `bash`, `Edit|MultiEdit|Write` on edit and write).
 * Only the built-in provider's tools: a module's tool that happens to be named `read` is not it.
 */
export const CLAUDE_CODE_NAMES: Readonly<Record<string, readonly string[]>> = {
  bash: ["Bash"],
  read: ["Read"],
  edit: ["Edit", "MultiEdit"],
  write: ["Write"],
  grep: ["Grep"],
  glob: ["Glob"],
};

/** The namespace the built-in tools are registered under (the provider's name). */
export const BUILTIN_NAMESPACE = "builtin";

/** The names a matcher is tried against: the tool's own, and for a built-in Claude Code's names. */
export function namesOf(tool: string, namespace: string): readonly string[] {
  const claude = namespace === BUILTIN_NAMESPACE ? CLAUDE_CODE_NAMES[tool] : undefined;
  return claude ? [tool, ...claude] : [tool];
}

type Matcher = (name: string) => boolean;

const compiled = new Map<string, Matcher>();
const SIMPLE = /^[A-Za-z0-9_|]+$/;

/**
 * Claude Code's matcher semantics: none, "" or "*" match every tool; letters, digits, `_` and `|`
 * only are exact names (`Edit|Write`); anything else is a regular expression searched in the name
 * (`mcp__github__.*`, `Notebook.*`). The expression runs on RE2JS, whose time is linear in the
 * name: a matcher comes from a configuration file, and a backtracking engine takes exponential
 * time on patterns like `(a|a)*$`, so even a 64-character tool name could hang the host.
 */
export function matcherOf(source: string | undefined): Matcher {
  if (source === undefined || source === "" || source === "*") return () => true;
  let m = compiled.get(source);
  if (m === undefined) {
    if (SIMPLE.test(source)) {
      const names = new Set(source.split("|"));
      m = (name) => names.has(name);
    } else {
      const re = re2().compile(source);
      m = (name) => re.matcher(name).find();
    }
    // matchers come from configuration and harness code: a few; a harness making new ones per
    // call would otherwise grow this without bound
    if (compiled.size >= 1024) compiled.clear();
    compiled.set(source, m);
  }
  return m;
}

/** Whether the matcher selects this tool (by its own name or, for a built-in, Claude Code's). */
export function matches(source: string | undefined, tool: string, namespace: string): boolean {
  const m = matcherOf(source);
  return namesOf(tool, namespace).some(m);
}

/** Why a matcher cannot be used, or undefined (the configuration's schema refuses it with this). */
export function matcherProblem(source: string): string | undefined {
  if (source.length > MATCHER_MAX_CHARS) return `a matcher is at most ${MATCHER_MAX_CHARS} characters`;
  if (source === "" || source === "*" || SIMPLE.test(source)) return undefined;
  try {
    re2().compile(source);
    return undefined;
  } catch (error) {
    return `matcher ${JSON.stringify(source)} is not a regular expression RE2 accepts (${(error as Error).message}); lookarounds and backreferences are not supported`;
  }
}

let loaded: typeof RE2JSClass | undefined;

/** re2js, loaded on first use: only a configured regular-expression matcher needs it. */
function re2(): typeof RE2JSClass {
  loaded ??= (createRequire(import.meta.url)("re2js") as { RE2JS: typeof RE2JSClass }).RE2JS;
  return loaded;
}
