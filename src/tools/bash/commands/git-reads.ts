import type { Word } from "../words.js";
import { literal } from "./site.js";

// What a git command reads besides the repository itself, and whether a `git config` line only
// reads: the option grammar git.ts's handler consults (its own file, so git.ts stays one job).

/** Subcommands that print the contents of tracked files (their diffs, their lines). */
export const CONTENT = new Set([
  "diff",
  "show",
  "grep",
  "blame",
  "annotate",
  "cat-file",
  "diff-tree",
  "diff-files",
  "diff-index",
  "range-diff",
  "whatchanged",
  "stash",
]);

/** Long options whose value is a file git reads (any unambiguous prefix counts: `--cont` is `--contents`). */
const FILE_OPTIONS = [
  "contents",
  "ignore-revs-file",
  "pathspec-from-file",
  "exclude-from",
  "exclude-per-directory",
];
/** Short options whose value is a file, per subcommand. */
const FILE_SHORT: Record<string, string> = { grep: "f", blame: "S", "ls-files": "X" };
/** Options whose value is the next word and no path (so it is not read as one). */
const VALUED = new Set([
  "-n",
  "--max-count",
  "--skip",
  "--author",
  "--committer",
  "--grep",
  "-S",
  "-G",
  "--since",
  "--until",
  "--after",
  "--before",
  "--format",
  "--pretty",
  "-e",
  "--date",
  "-U",
  "--unified",
  "--abbrev",
  "--sort",
  "--contains",
  "--merged",
  "--no-merged",
  "--points-at",
]);

interface GitReads {
  files: Word[];
  pathspecs: string[];
  untracked: boolean;
  /** log shows patches (-p, -u, --patch, -L, --cc, -c, -W, --word-diff, --color-words). */
  patch: boolean;
  ask?: string;
}

/**
 * What a reading git command reads besides the repository: a file an option names (`blame
 * --contents FILE`, `grep -f FILE`), each operand as a path (`git show :.env`, `git log -p
 * -- .env`: a revision reads as a harmless path), and untracked files (`grep --untracked`).
 */
export function readsOf(sub: string, rest: readonly Word[]): GitReads {
  const out: GitReads = { files: [], pathspecs: [], untracked: false, patch: false };
  // no `--`: nothing narrows (an empty list is every file)
  let onlyOperands = false;
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i]!;
    const v = w.value!;
    if (!onlyOperands && v === "--") {
      onlyOperands = true;
      continue;
    }
    if (onlyOperands || !v.startsWith("-") || v === "-") {
      const p = operandPath(v);
      if (p !== undefined) out.files.push(literal(p));
      // before `--` an operand may be a revision (`git show HEAD` shows every file HEAD changed): only
      // what follows `--` narrows what is shown
      if (onlyOperands) out.pathspecs.push(v);
      continue;
    }
    if (v.startsWith("--")) {
      const [name, value] = [
        v.slice(2).split("=")[0]!,
        v.includes("=") ? v.slice(v.indexOf("=") + 1) : undefined,
      ];
      const file = name.length >= 3 ? FILE_OPTIONS.find((o) => o.startsWith(name)) : undefined;
      if (file !== undefined) {
        const f = value ?? rest[++i]?.value;
        if (f === undefined) return { ...out, ask: `git ${sub} --${file} without a file` };
        out.files.push(literal(f));
        continue;
      }
      if (sub === "grep" && (name === "untracked" || name === "no-exclude-standard")) out.untracked = true;
      if (
        /^(patch|cc|word-diff|color-words|function-context|unified|patch-with-stat|patch-with-raw)/.test(name)
      )
        out.patch = true;
      if (value === undefined && VALUED.has(`--${name}`)) i++;
      continue;
    }
    // a short cluster: `-pS` is `-p -S`; the file option takes the rest of it or the next word
    const short = FILE_SHORT[sub];
    if (/[puLcW]/.test(v.slice(1))) out.patch = true;
    if (short !== undefined && v.slice(1).includes(short)) {
      const at = v.indexOf(short, 1);
      const f = v.slice(at + 1) || rest[++i]?.value;
      if (f === undefined) return { ...out, ask: `git ${sub} -${short} without a file` };
      out.files.push(literal(f));
      continue;
    }
    if (VALUED.has(v)) i++;
  }
  return out;
}

/**
 * The path an operand names: `rev:path` and the index's `:path`, `:N:path` (`git show :.env`),
 * a pathspec without its magic (`:(glob)x`, `:!x`); undefined for `:/text` (a commit message).
 */
function operandPath(v: string): string | undefined {
  if (v.startsWith(":/") || v === ":") return undefined;
  const magic = /^:(\([^)]*\)|[!^/]+)(.*)$/.exec(v);
  if (magic) return magic[2] === "" ? "." : magic[2];
  const stage = /^:(?:[0-3]:)?(.+)$/.exec(v);
  if (stage) return stage[1]!.replace(/^\.\//, "");
  const spec = /^[^-:][^:]*:(.+)$/.exec(v);
  if (spec) return spec[1]!.replace(/^\.\//, "");
  return v;
}

/**
 * Whether a `git config` line only reads the repository's own files: undefined when it does, else
 * why not ("writes" for the forms that set or unset). `git config NAME VALUE` sets NAME, so a value
 * `get` or `--get` after `--` is no read; the user's global and system files are outside the
 * workspace, so a read must say `--local` or `--worktree`; `--file`, `--blob`, `--global`,
 * `--system` and `--includes` read other files.
 */
export function configRead(values: readonly string[]): string | undefined {
  const opts: string[] = [];
  const operands: string[] = [];
  let onlyOperands = false;
  for (const v of values) {
    if (!onlyOperands && v === "--") onlyOperands = true;
    else if (!onlyOperands && v.startsWith("-") && v !== "-") opts.push(v);
    else operands.push(v);
  }
  const names = opts.map((o) => o.split("=")[0]!);
  const reading = ["--get", "--get-all", "--get-regexp", "--list", "-l"];
  const harmless = [
    ...reading,
    "--local",
    "--worktree",
    "-z",
    "--null",
    "--name-only",
    "--show-origin",
    "--show-scope",
    "--type",
    "--bool",
    "--int",
    "--bool-or-int",
    "--path",
    "--default",
    "--no-includes",
  ];
  // `git config get NAME` and `git config list` (git 2.46; before, `get` is a key without a section: an error)
  const newStyle = operands[0] === "get" || operands[0] === "list";
  if (!newStyle && !names.some((n) => reading.includes(n))) return "writes";
  const other = names.find((n) => !harmless.includes(n));
  if (other !== undefined) return `${other}: reads or writes other files than the repository's`;
  if (names.filter((n) => reading.includes(n)).length > 1) return "with more than one action";
  if (!names.includes("--local") && !names.includes("--worktree"))
    return "without --local reads your global and system configuration, outside the workspace";
  const listing = names.some((n) => n === "--list" || n === "-l") || operands[0] === "list";
  const max = listing ? 0 : newStyle ? 1 : 2;
  if (operands.length - (newStyle ? 1 : 0) > max) return "writes";
  return undefined;
}
