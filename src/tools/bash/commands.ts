import { has, type OptionSpec, parseOptions, valuesOf } from "./options.js";
import type { Word } from "./words.js";

/** What a command handler may report about one simple command (see classify.ts). */
export interface Site {
  /** The command's name without its folder (`/bin/rm` -> `rm`). */
  name: string;
  args: Word[];
  /** Writes a file or folder: a word of the command, or a path the handler made. */
  write(target: Word | string, opts?: { subtree?: boolean; base?: string | undefined }): void;
  /** The command does something the classifier cannot see through: the call must ask. */
  ask(reason: string): void;
  /** Another command this one runs (xargs, find -exec, sudo): checked and classified on its own. */
  run(words: Word[], how?: { stdinArgs?: boolean; replace?: string; placeholderRoots?: Word[] }): void;
  /** A script given as a string (`bash -c '...'`): parsed and classified like the command line. */
  script(text: Word): void;
}

type Handler = (site: Site) => void;

/** A literal word, for handlers that must name a path the command does not spell out. */
export function literal(value: string): Word {
  return {
    raw: value,
    value,
    glob: false,
    node: { type: "word", field: undefined, named: true, start: 0, end: 0, broken: false, children: [] },
  };
}

const each = (site: Site, words: Word[], subtree = false) => {
  for (const w of words) site.write(w, { subtree });
};

// Each table below is the command's own getopt: which options take a value, so that the
// operands (the files it writes) are found exactly. Hand-written: no library knows them.

const rm: Handler = (s) => {
  const p = parseOptions(s.args, { long: [] });
  each(s, p.operands, has(p, "-r", "-R", "--recursive"));
};

const simpleTargets =
  (spec: OptionSpec = {}): Handler =>
  (s) =>
    each(s, parseOptions(s.args, spec).operands);

const chmodLike =
  (spec: OptionSpec): Handler =>
  (s) => {
    const p = parseOptions(s.args, spec);
    const targets = p.options.has("--reference") ? p.operands : p.operands.slice(1);
    each(s, targets, has(p, "-R", "--recursive"));
  };

const copyLike =
  (removesSources: boolean): Handler =>
  (s) => {
    const p = parseOptions(s.args, {
      short: "tS",
      long: ["target-directory", "suffix", "backup", "reflink", "sparse", "preserve", "no-preserve"],
    });
    const targetDir = valuesOf(p, "-t", "--target-directory");
    const recursive = removesSources || has(p, "-r", "-R", "--recursive", "-a", "--archive");
    if (targetDir.length > 0) {
      for (const d of targetDir) s.write(d === "\0" ? dynamicWord(d) : d, { subtree: recursive });
      if (removesSources) each(s, p.operands, true);
      return;
    }
    if (p.operands.length === 0) return;
    const dest = p.operands[p.operands.length - 1]!;
    s.write(dest, { subtree: recursive });
    if (removesSources) each(s, p.operands.slice(0, -1), true);
  };

const ln: Handler = (s) => {
  const p = parseOptions(s.args, { short: "tS", long: ["target-directory", "suffix", "backup"] });
  const targetDir = valuesOf(p, "-t", "--target-directory");
  if (targetDir.length > 0) {
    for (const d of targetDir) s.write(d);
    return;
  }
  if (p.operands.length === 1) {
    const only = p.operands[0]!;
    // `ln -s ../x` makes ./x
    s.write(only.value === undefined ? only : `./${only.value.replace(/\/+$/, "").split("/").pop()}`);
  } else if (p.operands.length > 1) s.write(p.operands[p.operands.length - 1]!);
};

const install: Handler = (s) => {
  const p = parseOptions(s.args, {
    short: "mogtSD",
    long: ["mode", "owner", "group", "target-directory", "suffix"],
  });
  const targetDir = valuesOf(p, "-t", "--target-directory");
  if (has(p, "-d", "--directory")) return each(s, p.operands);
  if (targetDir.length > 0) for (const d of targetDir) s.write(d);
  else if (p.operands.length > 1) s.write(p.operands[p.operands.length - 1]!);
};

const tee: Handler = (s) => {
  const p = parseOptions(s.args, { long: ["output-error"] });
  each(
    s,
    p.operands.filter((w) => w.value !== "-"),
  );
};

const sed: Handler = (s) => {
  const p = parseOptions(s.args, {
    short: "efl",
    long: ["expression", "file", "line-length"],
    attached: "i",
  });
  if (!has(p, "-i", "--in-place")) return;
  const scripted = has(p, "-e", "-f", "--expression", "--file");
  each(s, scripted ? p.operands : p.operands.slice(1));
};

const perl: Handler = (s) => {
  const p = parseOptions(s.args, { short: "eEIMmlx0", long: [], attached: "i" });
  if (!has(p, "-i")) return;
  const scripted = has(p, "-e", "-E");
  each(s, scripted ? p.operands : p.operands.slice(1));
};

const sort: Handler = (s) => {
  const p = parseOptions(s.args, {
    short: "kotST",
    long: [
      "key",
      "output",
      "field-separator",
      "buffer-size",
      "temporary-directory",
      "parallel",
      "files0-from",
      "compress-program",
      "batch-size",
      "random-source",
      "sort",
    ],
  });
  for (const o of valuesOf(p, "-o", "--output")) s.write(o === "\0" ? dynamicWord(o) : o);
};

const dd: Handler = (s) => {
  for (const w of s.args) {
    if (w.value === undefined) {
      if (/^of=/.test(w.raw)) s.ask(`dd writes to a file only known when it runs (${w.raw})`);
      continue;
    }
    if (w.value.startsWith("of=")) s.write(w.value.slice(3));
  }
};

const tar: Handler = (s) => {
  const args = [...s.args];
  // old style: `tar czf out.tgz dir` — the first word is a bundle of letters without a dash
  const first = args[0]?.value;
  let letters = "";
  if (first !== undefined && !first.startsWith("-") && /^[A-Za-z]+$/.test(first)) {
    letters = first;
    args.shift();
  }
  const p = parseOptions(args, {
    short: "fCbgHKLNTVX",
    long: [
      "file",
      "directory",
      "exclude",
      "files-from",
      "blocking-factor",
      "transform",
      "owner",
      "group",
      "mode",
      "mtime",
      "newer",
      "use-compress-program",
      "label",
      "format",
    ],
  });
  let file = valuesOf(p, "-f", "--file");
  const operands = [...p.operands];
  if (letters.includes("f") && file.length === 0 && operands.length > 0) {
    const w = operands.shift()!;
    file = [w.value ?? "\0"];
  }
  const mode = (flag: string, long: string) => letters.includes(flag) || has(p, `-${flag}`, `--${long}`);
  if (mode("x", "extract") || has(p, "--get")) {
    const dirs = valuesOf(p, "-C", "--directory");
    s.write(dirs.length > 0 ? dirs[dirs.length - 1]! : ".", { subtree: true });
    return;
  }
  if (
    mode("c", "create") ||
    mode("r", "append") ||
    mode("u", "update") ||
    mode("A", "catenate") ||
    has(p, "--delete")
  ) {
    for (const f of file) if (f !== "-") s.write(f === "\0" ? dynamicWord(f) : f);
  }
};

const unzip: Handler = (s) => {
  const p = parseOptions(s.args, { short: "dxP", long: [] });
  if (has(p, "-l", "-t", "-v", "-p", "-Z", "-z")) return;
  const d = valuesOf(p, "-d");
  s.write(d.length > 0 ? d[d.length - 1]! : ".", { subtree: true });
};

const zip: Handler = (s) => {
  const p = parseOptions(s.args, { short: "bnPtx", long: [] });
  if (p.operands.length > 0) s.write(p.operands[0]!);
  if (has(p, "-m", "--move")) each(s, p.operands.slice(1), true);
};

const compressor: Handler = (s) => {
  const p = parseOptions(s.args, { short: "S", long: ["suffix"] });
  if (has(p, "-c", "--stdout", "-l", "--list", "-t", "--test")) return;
  // gzip x writes x.gz and removes x; both are beside x
  each(s, p.operands);
};

const patch: Handler = (s) => {
  const p = parseOptions(s.args, {
    short: "pioDdBrVYzFg",
    long: ["strip", "input", "output", "directory", "reject-file", "backup-if-mismatch", "prefix", "suffix"],
  });
  if (has(p, "--dry-run")) return;
  const out = valuesOf(p, "-o", "--output");
  if (out.length > 0) {
    for (const o of out) s.write(o);
    return;
  }
  if (p.operands.length > 0) return s.write(p.operands[0]!);
  const d = valuesOf(p, "-d", "--directory");
  s.write(d.length > 0 ? d[0]! : ".", { subtree: true });
};

const rsync: Handler = (s) => {
  const p = parseOptions(s.args, {
    short: "efBTM",
    long: [
      "rsh",
      "filter",
      "exclude",
      "include",
      "exclude-from",
      "include-from",
      "files-from",
      "temp-dir",
      "partial-dir",
      "backup-dir",
      "suffix",
      "chmod",
      "chown",
      "log-file",
      "password-file",
      "rsync-path",
      "timeout",
      "bwlimit",
      "compare-dest",
      "copy-dest",
      "link-dest",
      "max-size",
      "min-size",
    ],
  });
  if (has(p, "-n", "--dry-run") || p.operands.length < 2) return;
  const dest = p.operands[p.operands.length - 1]!;
  if (dest.value !== undefined && /^[^/]*:/.test(dest.value)) return; // remote: nothing written here
  s.write(dest, { subtree: true });
  if (has(p, "--remove-source-files")) each(s, p.operands.slice(0, -1), true);
};

const curl: Handler = (s) => {
  const p = parseOptions(s.args, {
    short: "oDcdHXuAeFTxwmbrKEyYzCQtUP",
    long: [
      "output",
      "dump-header",
      "cookie-jar",
      "data",
      "data-raw",
      "data-binary",
      "data-urlencode",
      "header",
      "request",
      "user",
      "user-agent",
      "referer",
      "form",
      "upload-file",
      "proxy",
      "write-out",
      "max-time",
      "cookie",
      "range",
      "config",
      "cert",
      "key",
      "output-dir",
      "connect-timeout",
      "retry",
      "url",
      "json",
      "trace",
      "trace-ascii",
      "stderr",
      "etag-save",
      "hsts",
      "alt-svc",
    ],
  });
  const dir = valuesOf(p, "--output-dir");
  const base = dir.length > 0 && dir[0] !== "\0" ? dir[0] : undefined;
  for (const o of valuesOf(
    p,
    "-o",
    "--output",
    "-D",
    "--dump-header",
    "-c",
    "--cookie-jar",
    "--trace",
    "--trace-ascii",
    "--stderr",
    "--etag-save",
  )) {
    if (o === "-") continue;
    s.write(o === "\0" ? dynamicWord(o) : o, base !== undefined ? { base } : {});
  }
  if (has(p, "-O", "--remote-name", "--remote-name-all", "-J")) s.write(dir.length > 0 ? dir[0]! : ".");
};

const wget: Handler = (s) => {
  const p = parseOptions(s.args, {
    short: "OPoaeiTtwUYQDAIXRlB",
    long: [
      "output-document",
      "directory-prefix",
      "output-file",
      "append-output",
      "input-file",
      "timeout",
      "tries",
      "wait",
      "user-agent",
      "user",
      "password",
      "header",
      "post-data",
      "post-file",
      "load-cookies",
      "save-cookies",
      "accept",
      "reject",
      "level",
      "domains",
      "base",
    ],
  });
  if (has(p, "--spider")) return;
  const doc = valuesOf(p, "-O", "--output-document");
  for (const o of [
    ...doc,
    ...valuesOf(p, "-o", "--output-file", "-a", "--append-output", "--save-cookies"),
  ]) {
    if (o !== "-") s.write(o === "\0" ? dynamicWord(o) : o);
  }
  if (doc.length === 0) {
    const prefix = valuesOf(p, "-P", "--directory-prefix");
    s.write(prefix.length > 0 ? prefix[0]! : ".", { subtree: has(p, "-r", "--recursive", "-m", "--mirror") });
  }
};

const mktemp: Handler = (s) => {
  const p = parseOptions(s.args, { short: "p", long: ["tmpdir", "suffix"] });
  if (has(p, "-u", "--dry-run")) return;
  const dir = valuesOf(p, "-p", "--tmpdir").filter((d) => d !== "");
  const template = p.operands[0]?.value;
  if (dir.length > 0) s.write(dir[0]!);
  else if (template?.includes("/") && !has(p, "-t"))
    s.write(template.slice(0, template.lastIndexOf("/")) || "/");
  else s.write("/tmp");
};

const find: Handler = (s) => {
  const roots: Word[] = [];
  let i = 0;
  // leading options (-H -L -P -O3 -D x), then the roots, then the expression
  while (i < s.args.length && /^-(H|L|P|O\d*|D)$/.test(s.args[i]!.value ?? ""))
    i += s.args[i]!.value === "-D" ? 2 : 1;
  while (i < s.args.length) {
    const v = s.args[i]!.value;
    if (v !== undefined && (v.startsWith("-") || v === "(" || v === "!" || v === ",")) break;
    roots.push(s.args[i]!);
    i++;
  }
  if (roots.length === 0) roots.push(literal("."));
  for (; i < s.args.length; i++) {
    const v = s.args[i]!.value;
    if (v === "-delete") for (const r of roots) s.write(r, { subtree: true });
    else if (v === "-fprint" || v === "-fprint0" || v === "-fls" || v === "-fprintf") {
      const f = s.args[i + 1];
      if (f) s.write(f);
      i += v === "-fprintf" ? 2 : 1;
    } else if (v === "-exec" || v === "-execdir" || v === "-ok" || v === "-okdir") {
      const inner: Word[] = [];
      for (i++; i < s.args.length; i++) {
        const t = s.args[i]!.value;
        if (t === ";" || (t === "+" && inner.at(-1)?.value === "{}")) break;
        inner.push(s.args[i]!);
      }
      if (inner.length > 0) s.run(inner, { placeholderRoots: roots });
    }
  }
};

const xargs: Handler = (s) => {
  const p = parseOptions(s.args, {
    short: "adEILnPs",
    long: [
      "arg-file",
      "delimiter",
      "eof",
      "replace",
      "max-lines",
      "max-args",
      "max-procs",
      "max-chars",
      "process-slot-var",
    ],
    attached: "ie",
    posix: true,
  });
  const replace = valuesOf(p, "-I", "--replace", "-i").map((r) => (r === "" ? "{}" : r))[0];
  const inner = p.operands.length > 0 ? p.operands : [literal("echo")];
  s.run(inner, replace !== undefined ? { stdinArgs: true, replace } : { stdinArgs: true });
};

const wrapperSudo: Handler = (s) => {
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

const shellC: Handler = (s) => {
  const p = parseOptions(s.args, { short: "oO", long: ["rcfile", "init-file"], posix: true });
  if (!has(p, "-c")) return;
  // `bash -c 'script' name args`: with -c, the first operand is the script
  const script = p.operands[0];
  if (!script) return;
  s.script(script);
};

const opaque =
  (why: string): Handler =>
  (s) =>
    s.ask(`${s.name} ${why}`);

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
  "help",
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
  "fsck",
  "archive",
  "bugreport",
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

const git: Handler = (s) => {
  let base: string | undefined = ".";
  let i = 0;
  for (; i < s.args.length; i++) {
    const v = s.args[i]!.value;
    if (v === undefined) return s.ask("git is given an option only known when it runs");
    if (v === "-C") {
      const d = s.args[++i];
      base = d ? (base === undefined ? undefined : joinDir(base, d)) : base;
      continue;
    }
    if (v === "-c" || v.startsWith("--config-env") || v.startsWith("--exec-path=")) {
      return s.ask("git -c can make git run other programs (aliases, hooks, pagers)");
    }
    if (v === "--git-dir" || v === "--work-tree" || v === "--namespace" || v === "--super-prefix") {
      i++;
      return s.ask(`git ${v} points git somewhere else`);
    }
    if (v.startsWith("--git-dir=") || v.startsWith("--work-tree="))
      return s.ask(`git ${v.split("=")[0]} points git somewhere else`);
    if (!v.startsWith("-")) break;
  }
  const sub = s.args[i]?.value;
  if (sub === undefined) return;
  const rest = s.args.slice(i + 1);
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
    (sub === "config" &&
      values.some(
        (v) =>
          v === "--get" ||
          v === "--get-all" ||
          v === "--list" ||
          v === "-l" ||
          v === "--get-regexp" ||
          v === "get",
      )) ||
    (sub === "stash" && ["list", "show"].includes(values[0] ?? "")) ||
    (sub === "worktree" && values[0] === "list") ||
    (sub === "submodule" && (values.length === 0 || values[0] === "status")) ||
    (sub === "reflog" && (values.length === 0 || values[0] === "show")) ||
    (sub === "notes" && (values.length === 0 || values[0] === "list" || values[0] === "show")) ||
    (sub === "fetch" && values.includes("--dry-run")) ||
    (sub === "push" && (values.includes("--dry-run") || values.includes("-n"))) ||
    (sub === "clean" && (values.includes("-n") || values.includes("--dry-run")));
  if (reads) return;
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
};

/** npm-family installs: the manifest, the lock file and the dependency folder. */
const nodePackages =
  (lock: string, installs: readonly string[], bareInstalls = false): Handler =>
  (s) => {
    const sub = s.args.find((w) => !(w.value ?? "").startsWith("-"))?.value;
    if (sub === undefined ? !bareInstalls : !installs.includes(sub)) return;
    const global = s.args.some((w) => ["-g", "--global", "--location=global"].includes(w.value ?? ""));
    if (global) return s.write("/usr/local/lib/node_modules", { subtree: true });
    const p = parseOptions(s.args, { short: "C", long: ["prefix", "dir", "cwd"] });
    const prefix = valuesOf(p, "--prefix", "-C", "--dir", "--cwd")[0];
    if (prefix === "\0") return s.ask(`${s.name} installs into a folder only known when it runs`);
    const at = prefix !== undefined ? { base: prefix } : {};
    s.write("package.json", at);
    s.write(lock, at);
    s.write("node_modules", { ...at, subtree: true });
  };

const pip: Handler = (s) => {
  const p = parseOptions(s.args, {
    short: "rctie",
    long: [
      "requirement",
      "constraint",
      "target",
      "index-url",
      "extra-index-url",
      "prefix",
      "root",
      "src",
      "python",
    ],
  });
  const sub = p.operands[0]?.value;
  if (!["install", "uninstall", "download", "wheel"].includes(sub ?? "")) return;
  const target = valuesOf(p, "-t", "--target", "--prefix", "--root", "-d", "--dest");
  if (target.length > 0) {
    for (const t of target) s.write(t, { subtree: true });
    return;
  }
  if (sub === "download" || sub === "wheel") return s.write(".", { subtree: false });
  if (has(p, "--user")) return s.write("~/.local", { subtree: true });
  s.ask(`${s.name} ${sub} writes into the active Python environment, which may be outside the workspace`);
};

const python: Handler = (s) => {
  const m = s.args.findIndex((w) => w.value === "-m");
  const mod = m >= 0 ? s.args[m + 1]?.value : undefined;
  if (mod === "pip") pip({ ...s, name: "pip", args: s.args.slice(m + 2) });
};

const systemPackages =
  (verbs: readonly string[]): Handler =>
  (s) => {
    const sub = s.args.find((w) => !(w.value ?? "").startsWith("-"))?.value;
    if (sub !== undefined && verbs.includes(sub)) s.write("/usr", { subtree: true });
  };

const cargo: Handler = (s) => {
  const sub = s.args.find((w) => !(w.value ?? "").startsWith("-"))?.value;
  if (sub === "add" || sub === "remove" || sub === "rm" || sub === "update") {
    s.write("Cargo.toml");
    s.write("Cargo.lock");
  } else if (sub === "install" || sub === "uninstall") s.write("~/.cargo", { subtree: true });
};

const go: Handler = (s) => {
  const sub = s.args[0]?.value;
  if (sub === "get" || (sub === "mod" && ["tidy", "edit", "init"].includes(s.args[1]?.value ?? ""))) {
    s.write("go.mod");
    s.write("go.sum");
  } else if (sub === "mod" && s.args[1]?.value === "vendor") s.write("vendor", { subtree: true });
  else if (sub === "install") s.write("~/go", { subtree: true });
};

const uv: Handler = (s) => {
  const sub = s.args[0]?.value;
  if (sub === "pip") return pip({ ...s, name: "uv pip", args: s.args.slice(1) });
  if (["add", "remove", "sync", "lock", "init"].includes(sub ?? "")) {
    s.write("pyproject.toml");
    s.write("uv.lock");
    s.write(".venv", { subtree: true });
  }
};

/** Commands that run another command with its own arguments; the inner one is what runs. */
export const WRAPPERS: Readonly<Record<string, OptionSpec & { skipFirstOperand?: boolean }>> = {
  command: { posix: true },
  builtin: { posix: true },
  exec: { short: "a", posix: true },
  nice: { short: "n", long: ["adjustment"], posix: true },
  nohup: { posix: true },
  time: { short: "fo", long: ["format", "output"], posix: true },
  timeout: { short: "sk", long: ["signal", "kill-after"], posix: true, skipFirstOperand: true },
  stdbuf: { short: "ioe", long: ["input", "output", "error"], posix: true },
  ionice: { short: "cnp", long: ["class", "classdata", "pid"], posix: true },
  coproc: { posix: true },
  setsid: { posix: true },
  unbuffer: { posix: true },
  watch: { short: "n", long: ["interval"], posix: true },
};

/** Shell builtins that only change the shell itself: nothing to authorise (cd is tracked apart). */
export const SHELL_ONLY = new Set([
  "cd",
  "pushd",
  "popd",
  "dirs",
  "true",
  "false",
  ":",
  "exit",
  "return",
  "break",
  "continue",
  "shift",
  "set",
  "unset",
  "wait",
  "read",
  "test",
  "[",
  "[[",
  "local",
  "export",
  "declare",
  "typeset",
  "readonly",
  "let",
  "shopt",
  "umask",
  "hash",
  "type",
  "getopts",
  "jobs",
]);

const HANDLERS: Record<string, Handler> = {
  rm,
  rmdir: simpleTargets(),
  unlink: simpleTargets(),
  shred: simpleTargets({ short: "ns", long: ["iterations", "size", "random-source"] }),
  truncate: simpleTargets({ short: "sr", long: ["size", "reference"] }),
  touch: simpleTargets({ short: "drt", long: ["date", "reference", "time"] }),
  mkdir: simpleTargets({ short: "m", long: ["mode", "context"] }),
  mkfifo: simpleTargets({ short: "mZ", long: ["mode", "context"] }),
  mknod: (s) => {
    const p = parseOptions(s.args, { short: "mZ", long: ["mode", "context"] });
    if (p.operands[0]) s.write(p.operands[0]);
  },
  chmod: chmodLike({ long: ["reference"] }),
  chown: chmodLike({ long: ["reference", "from"] }),
  chgrp: chmodLike({ long: ["reference"] }),
  chattr: chmodLike({ short: "pv" }),
  setfacl: chmodLike({
    short: "mMxX",
    long: ["modify", "remove", "set", "set-file", "modify-file", "remove-file"],
  }),
  cp: copyLike(false),
  mv: copyLike(true),
  ln,
  link: (s) => {
    if (s.args[1]) s.write(s.args[1]);
  },
  install,
  tee,
  sponge: simpleTargets(),
  sed,
  perl,
  sort,
  dd,
  tar,
  unzip,
  zip,
  gzip: compressor,
  gunzip: compressor,
  bzip2: compressor,
  bunzip2: compressor,
  xz: compressor,
  unxz: compressor,
  zstd: compressor,
  patch,
  rsync,
  curl,
  wget,
  mktemp,
  find,
  xargs,
  sudo: wrapperSudo,
  doas: wrapperSudo,
  bash: shellC,
  sh: shellC,
  dash: shellC,
  zsh: shellC,
  ksh: shellC,
  eval: opaque("runs text as a command: what it runs is only known when it runs"),
  source: opaque("runs the commands of a file the classifier cannot see"),
  ".": opaque("runs the commands of a file the classifier cannot see"),
  trap: opaque("sets commands to run later"),
  alias: opaque("changes what command names mean"),
  enable: opaque("changes which builtins exist"),
  git,
  npm: nodePackages("package-lock.json", [
    "install",
    "i",
    "ci",
    "add",
    "uninstall",
    "un",
    "remove",
    "rm",
    "r",
    "update",
    "up",
    "upgrade",
    "link",
    "ln",
    "dedupe",
    "prune",
    "rebuild",
    "init",
  ]),
  pnpm: nodePackages("pnpm-lock.yaml", [
    "add",
    "install",
    "i",
    "remove",
    "rm",
    "uninstall",
    "update",
    "up",
    "upgrade",
    "link",
    "prune",
    "rebuild",
    "init",
  ]),
  yarn: nodePackages("yarn.lock", ["add", "install", "remove", "upgrade", "up", "link", "init"], true),
  bun: nodePackages("bun.lockb", ["add", "install", "i", "remove", "rm", "update", "link", "init"]),
  pip,
  pip3: pip,
  python: python,
  python3: python,
  uv,
  cargo,
  go,
  "apt-get": systemPackages([
    "install",
    "remove",
    "purge",
    "upgrade",
    "dist-upgrade",
    "autoremove",
    "update",
  ]),
  apt: systemPackages(["install", "remove", "purge", "upgrade", "full-upgrade", "autoremove", "update"]),
  dnf: systemPackages(["install", "remove", "upgrade", "update", "erase"]),
  yum: systemPackages(["install", "remove", "upgrade", "update", "erase"]),
  apk: systemPackages(["add", "del", "upgrade", "update"]),
  brew: systemPackages(["install", "uninstall", "upgrade", "reinstall", "update"]),
  pacman: (s) => {
    if (s.args.some((w) => /^-[A-Za-z]*[SRU]/.test(w.value ?? ""))) s.write("/usr", { subtree: true });
  },
  gem: systemPackages(["install", "uninstall", "update"]),
};

/** Reports what one simple command writes (and what it runs) to the site; unknown commands write nothing we can see. */
export function classifyCommand(site: Site): void {
  HANDLERS[site.name]?.(site);
}

export function dynamicWord(raw: string): Word {
  return { ...literal(raw === "\0" ? "<value known only when it runs>" : raw), value: undefined };
}

/** A directory word joined onto a base ("." relative); undefined when either is unknown. */
export function joinDir(base: string, word: Word): string | undefined {
  const v = word.value;
  if (v === undefined || word.glob) return undefined;
  if (v.startsWith("/")) return v;
  return base === "." ? v : `${base}/${v}`;
}
