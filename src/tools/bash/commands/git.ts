import { has, parseOptions } from "../options.js";
import type { Word } from "../words.js";
import { CONTENT, configRead, readsOf } from "./git-reads.js";
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
