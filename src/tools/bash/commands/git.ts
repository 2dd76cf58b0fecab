import { has, parseOptions } from "../options.js";
import type { Word } from "../words.js";
import { type Handler, joinDir, literal } from "./site.js";

/** Git subcommands that only look; every other one writes the repository, most also the tree. */
const GIT_READS = new Set([
  "status",
  "log",
  "diff",
  "show",
  "blame",
  "annotate",
  "rev-parse",
  "rev-list",
  "ls-files",
  "ls-tree",
  "ls-remote",
  "grep",
  "describe",
  "shortlog",
  "cat-file",
  "version",
  "whatchanged",
  "name-rev",
  "merge-base",
  "for-each-ref",
  "show-ref",
  "count-objects",
  "check-ignore",
  "check-attr",
  "var",
  "diff-tree",
  "diff-files",
  "diff-index",
  "show-branch",
  "cherry",
  "range-diff",
  "verify-commit",
  "verify-tag",
]);
/** Subcommands that change files in the work tree (the rest change only .git). */
const GIT_TREE = new Set([
  "checkout",
  "switch",
  "reset",
  "restore",
  "merge",
  "rebase",
  "pull",
  "stash",
  "clean",
  "rm",
  "mv",
  "apply",
  "am",
  "cherry-pick",
  "revert",
  "submodule",
  "worktree",
  "checkout-index",
  "read-tree",
  "filter-branch",
  "sparse-checkout",
  "bisect",
]);

/** Options that make a git command write a file, run a program or read outside the repository. */
const GIT_RUNS = [
  "output",
  "upload-pack",
  "receive-pack",
  "exec",
  "ext-diff",
  "open-files-in-pager",
  "no-index",
  "textconv",
  "paginate",
  "config-env",
  "exec-path",
  "git-dir",
  "work-tree",
  "namespace",
  "super-prefix",
  "template",
  "separate-git-dir",
];

/** `--outp` is `--output` to git (it takes unambiguous prefixes): a prefix of a listed option counts. */
function runsOrWrites(value: string): string | undefined {
  if (/^-O/.test(value)) return "-O (open files in a pager)";
  if (!value.startsWith("--")) return undefined;
  const name = value.slice(2).split("=")[0]!;
  if (name.length < 2) return undefined;
  const hit = GIT_RUNS.find((o) => o === name || o.startsWith(name));
  return hit === undefined ? undefined : `--${hit}`;
}

/** git's own options before the subcommand that change nothing but output and locks. */
const GIT_GLOBAL_FLAGS = new Set([
  "--no-pager",
  "-P",
  "--no-optional-locks",
  "--literal-pathspecs",
  "--no-replace-objects",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
  "--version",
  "--help",
]);

export const git: Handler = (s) => {
  let base: string | undefined = ".";
  let baseWord: Word | undefined;
  let i = 0;
  for (; i < s.args.length; i++) {
    const w = s.args[i]!;
    const v = w.value;
    if (v === undefined) return s.ask(`git is given an option only known when it runs (${w.raw})`);
    if (v === "-C") {
      const d = s.args[++i];
      if (d === undefined) return;
      baseWord = d;
      base = base === undefined ? undefined : joinDir(base, d);
      continue;
    }
    if (v.startsWith("-c"))
      return s.ask("git -c sets configuration that can run programs (aliases, pagers, hooks)");
    if (!v.startsWith("-")) break;
    if (!GIT_GLOBAL_FLAGS.has(v))
      return s.ask(`git ${v.split("=")[0]}: an option of git's the classifier does not model`);
  }
  const sub = s.args[i]?.value;
  if (sub === undefined) return;
  const rest = s.args.slice(i + 1);
  const unknownArg = rest.find((w) => w.value === undefined);
  for (const w of rest) {
    const hit = w.value === undefined ? undefined : runsOrWrites(w.value);
    if (hit !== undefined)
      return s.ask(`git ${sub} ${hit} writes a file, runs a program or reads outside the repository`);
  }
  const values = rest.map((w) => w.value);
  const onlyFlags = (...ok: string[]) =>
    values.every(
      (v) => v !== undefined && (ok.includes(v) || v.startsWith("--format") || v.startsWith("--sort")),
    );
  const reads =
    GIT_READS.has(sub) ||
    (sub === "branch" &&
      onlyFlags(
        "-a",
        "-r",
        "-v",
        "-vv",
        "--all",
        "--list",
        "-l",
        "--show-current",
        "--remotes",
        "--merged",
        "--no-merged",
        "--contains",
      )) ||
    (sub === "tag" && onlyFlags("-l", "--list", "-n")) ||
    (sub === "remote" &&
      (values.length === 0 ||
        onlyFlags("-v", "--verbose") ||
        ["show", "get-url"].includes(values[0] ?? ""))) ||
    (sub === "config" && configRead(values as string[]) !== "writes") ||
    (sub === "stash" && ["list", "show"].includes(values[0] ?? "")) ||
    (sub === "worktree" && values[0] === "list") ||
    (sub === "submodule" && (values.length === 0 || values[0] === "status")) ||
    (sub === "reflog" && (values.length === 0 || values[0] === "show")) ||
    (sub === "notes" && (values.length === 0 || values[0] === "list" || values[0] === "show")) ||
    (sub === "fetch" && values.includes("--dry-run")) ||
    (sub === "push" && (values.includes("--dry-run") || values.includes("-n"))) ||
    (sub === "clean" && (values.includes("-n") || values.includes("--dry-run")));
  if (reads) {
    if (unknownArg !== undefined)
      return s.ask(`git ${sub} is given an argument only known when it runs (${unknownArg.raw})`);
    if (sub === "config") {
      const why = configRead(values as string[]);
      if (why !== undefined) return s.ask(`git config ${why}`);
    }
    const read = readsOf(sub, rest);
    if (read.ask !== undefined) return s.ask(read.ask);
    s.read(baseWord ?? ".", { subtree: true });
    for (const f of read.files) s.read(f, { base });
    // `git grep --untracked` opens every file the index does not hold: the work tree's contents
    if (read.untracked) s.read(".", { subtree: true, contents: true, base });
    if (base === undefined) return s.ask("git runs in a directory only known when it runs");
    s.repository(base, {
      contents: CONTENT.has(sub) || (sub === "log" && read.patch),
      pathspecs: read.pathspecs,
    });
    // these read but reach the network or run gpg: a rule decides them
    const outward = ["ls-remote", "fetch", "push", "verify-commit", "verify-tag", "var"].includes(sub);
    if (!outward && !(sub === "remote" && values[0] === "show")) s.readOnly(`git ${sub}, read-only form`);
    return;
  }
  if (base === undefined) return s.ask("git runs in a directory only known when it runs");
  if (sub === "clone") {
    const p = parseOptions(rest, {
      short: "obuj",
      long: [
        "origin",
        "branch",
        "upload-pack",
        "template",
        "reference",
        "separate-git-dir",
        "depth",
        "jobs",
        "config",
        "shallow-since",
        "shallow-exclude",
        "filter",
      ],
    });
    const url = p.operands[0]?.value;
    const dest =
      p.operands[1] ??
      (url === undefined
        ? undefined
        : literal(
            url
              .replace(/\/+$/, "")
              .replace(/\.git$/, "")
              .split(/[/:]/)
              .pop() || ".",
          ));
    if (dest === undefined) return s.ask("git clone into a folder only known when it runs");
    if (has(p, "-c", "--config")) s.ask("git clone -c can make git run other programs");
    s.write(dest, { subtree: true, base });
    return;
  }
  if (sub === "init") {
    const p = parseOptions(rest, {
      long: ["template", "separate-git-dir", "initial-branch", "object-format", "shared"],
      short: "b",
    });
    s.write(p.operands[0] ?? ".", { subtree: false, base });
    return;
  }
  s.write(".", { subtree: GIT_TREE.has(sub), base });
  s.repository(base, { contents: false, pathspecs: [] });
};

/** Subcommands that print the contents of tracked files (their diffs, their lines). */
const CONTENT = new Set([
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
function readsOf(sub: string, rest: readonly Word[]): GitReads {
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
