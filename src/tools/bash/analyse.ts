import os from "node:os";
import path from "node:path";
import { realpathOfLongestPrefix, resolvePath } from "../../permissions/paths.js";
import { executableAs } from "../../util/file-kind.js";
import type { ShellAnalysis } from "./analysis.js";
import { BudgetSpent, type CheckBudget } from "./budget.js";
import { expandPathname } from "./glob.js";
import { setsLocale, shellLocale } from "./locale.js";
import { bashParser, type ParsedShell } from "./parser.js";
import { ParseStopped } from "./shell-tree.js";
import { simpleShell } from "./simple.js";
import { type ClassifyOptions, classifyShell } from "./subset.js";

/** A nested script (`bash -c ...`) of a simple line is not simple: the parser must load. */
class ParserNeeded extends Error {}

export interface Where {
  /** The directory the line starts in: with it, `cd`, globs and paths are resolved against the files now. */
  cwd?: string;
  /** The names in the shell's environment (default: toolplane's). */
  exported?: ReadonlySet<string>;
  /** The shell's environment (its locale, its PATH): default toolplane's. */
  env?: Readonly<Record<string, string | undefined>>;
  budget?: CheckBudget;
}

/**
 * Parses and classifies a command line (the parser loads on first use). With `cwd`, a `cd` into a
 * folder that exists now is known to succeed, and globs name the files there now. A simple line
 * (simple.ts) is classified from the tree tree-sitter-bash would make, built without loading it;
 * anything else, a nested script included, goes to the parser.
 */
export async function analyseCommand(
  command: string,
  home = os.homedir(),
  where: Where = {},
): Promise<ShellAnalysis> {
  const env = where.env ?? process.env;
  const locale = shellLocale(env);
  // a line that sets LANG or LC_* decodes and sorts by a locale the check cannot know now
  if (setsLocale(command)) {
    locale.utf8 = false;
    locale.codepointOrder = false;
  }
  const budget = where.budget;
  const options = (parse: (s: string) => ParsedShell): ClassifyOptions => ({
    home,
    parse,
    locale,
    shellOf: (name) => shellOf(name, env.PATH ?? ""),
    exported: where.exported ?? new Set(Object.keys(env)),
    ...(budget !== undefined ? { budget } : {}),
    ...(where.cwd !== undefined
      ? {
          cwd: where.cwd,
          // bash gets no PWD: it starts from the physical directory
          pwd: realpathOfLongestPrefix(path.resolve(where.cwd)),
          isDir: (absolute) => executableAs(absolute, "directory"),
          realpath: (abs: string) => resolvePath(abs, "/", "/").real,
          glob: (pattern: string, dir: string) => expandPathname(pattern, dir, budget),
        }
      : {}),
  });
  const simple = simpleShell(command);
  if (simple !== undefined) {
    try {
      return classifyShell(
        simple,
        options((s) => {
          const tree = simpleShell(s);
          if (tree === undefined) throw new ParserNeeded();
          return tree;
        }),
      );
    } catch (error) {
      if (!(error instanceof ParserNeeded)) throw error;
    }
  }
  const parser = await bashParser();
  budget?.check();
  // the parse of a long line is most of the check's time: it stops at the budget too
  const parse = (s: string): ParsedShell => {
    if (budget === undefined) return parser.parse(s);
    try {
      return parser.parse(s, () => budget.spent());
    } catch (error) {
      if (error instanceof ParseStopped) throw new BudgetSpent(budget.limitMs);
      throw error;
    }
  };
  return classifyShell(parse(command), options(parse));
}

/**
 * Which shell `name` runs from PATH: Debian's `sh` is dash, which reads `{a,b}` and `$'x'` as
 * text; another system's is bash. undefined for any other program, or none found.
 */
function shellOf(name: string, pathVar: string): "bash" | "dash" | undefined {
  const candidates = name.includes("/") ? [name] : pathVar.split(":").map((d) => path.join(d || ".", name));
  for (const c of candidates) {
    if (!executableAs(c, "file")) continue;
    const base = path.basename(realpathOfLongestPrefix(path.resolve(c)));
    return base === "bash" || base === "dash" ? base : undefined;
  }
  return undefined;
}
