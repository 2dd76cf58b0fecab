import { type StrictSpec, strictOptions } from "../options.js";
import type { Word } from "../words.js";
import { dynamicWord, type Handler, literal, type Site } from "./site.js";

// grep, rg and find: read-only when no option runs a program or writes (rg --pre, find -exec);
// every path they search is a read, and a recursive search reads the whole folder.

const GREP: StrictSpec = {
  flags: "EFGPiywxvcLlOoqsbHhnTZzUaIrRV",
  valued: "efmABCdD",
  numeric: true,
  long: [
    "extended-regexp",
    "fixed-strings",
    "basic-regexp",
    "perl-regexp",
    "ignore-case",
    "no-ignore-case",
    "word-regexp",
    "line-regexp",
    "null-data",
    "no-messages",
    "invert-match",
    "version",
    "help",
    "byte-offset",
    "line-number",
    "no-line-number",
    "line-buffered",
    "with-filename",
    "no-filename",
    "only-matching",
    "quiet",
    "silent",
    "text",
    "recursive",
    "dereference-recursive",
    "files-without-match",
    "files-with-matches",
    "count",
    "initial-tab",
    "null",
  ],
  longValued: [
    "regexp",
    "file",
    "max-count",
    "label",
    "binary-files",
    "directories",
    "devices",
    "include",
    "exclude",
    "exclude-dir",
    "before-context",
    "after-context",
    "context",
    "group-separator",
  ],
  longOptional: ["color", "colour"],
};

export const grep: Handler = (s) => {
  const p = strictOptions(s.args, GREP);
  if (unknownOptions(s, p.unknown)) return;
  if (p.options.has("--exclude-from"))
    return s.ask("grep --exclude-from reads a list the classifier does not see");
  for (const f of [...(p.options.get("-f") ?? []), ...(p.options.get("--file") ?? [])]) read(s, f);
  const patternGiven = ["-e", "--regexp", "-f", "--file"].some((o) => p.options.has(o));
  const operands = patternGiven ? p.operands : p.operands.slice(1);
  const recursive =
    ["-r", "-R", "--recursive", "--dereference-recursive"].some((o) => p.options.has(o)) ||
    [...(p.options.get("-d") ?? []), ...(p.options.get("--directories") ?? [])].includes("recurse");
  // -R follows every symlink below: where one leads outside the workspace, the read asks (needs.ts)
  const follows = ["-R", "--dereference-recursive"].some((o) => p.options.has(o));
  const at = { subtree: recursive, contents: recursive, ...(follows ? { follows: true } : {}) };
  if (operands.length === 0 && recursive) s.read(".", { ...at, subtree: true, contents: true });
  for (const o of operands) if (o.value !== "-") s.read(o, at);
  s.readOnly("grep, read-only form");
};

const RG: StrictSpec = {
  flags: "iswxvnNlcoquLHIpPFaU0bhV.z",
  valued: "efgtTmABCjMrEd",
  numeric: false,
  long: [
    "case-sensitive",
    "crlf",
    "fixed-strings",
    "ignore-case",
    "invert-match",
    "line-regexp",
    "mmap",
    "no-mmap",
    "multiline",
    "multiline-dotall",
    "no-unicode",
    "null-data",
    "pcre2",
    "smart-case",
    "stop-on-nonmatch",
    "text",
    "word-regexp",
    "auto-hybrid-regex",
    "no-pcre2-unicode",
    "binary",
    "follow",
    "glob-case-insensitive",
    "hidden",
    "ignore-file-case-insensitive",
    "no-ignore",
    "no-ignore-global",
    "no-ignore-dot",
    "no-ignore-exclude",
    "no-ignore-files",
    "no-ignore-parent",
    "no-ignore-vcs",
    "no-require-git",
    "one-file-system",
    "unrestricted",
    "block-buffered",
    "byte-offset",
    "vimgrep",
    "column",
    "no-column",
    "no-context-separator",
    "heading",
    "no-heading",
    "help",
    "include-zero",
    "line-buffered",
    "line-number",
    "no-line-number",
    "max-columns-preview",
    "null",
    "only-matching",
    "passthru",
    "pretty",
    "quiet",
    "trim",
    "with-filename",
    "no-filename",
    "sort-files",
    "count",
    "count-matches",
    "files-with-matches",
    "files-without-match",
    "json",
    "no-json",
    "debug",
    "trace",
    "no-ignore-messages",
    "no-messages",
    "stats",
    "files",
    "no-config",
    "search-zip",
    "type-list",
    "version",
    "pcre2-version",
  ],
  longValued: [
    "regexp",
    "file",
    "glob",
    "iglob",
    "type",
    "type-not",
    "type-add",
    "type-clear",
    "max-count",
    "after-context",
    "before-context",
    "context",
    "threads",
    "max-columns",
    "replace",
    "encoding",
    "max-depth",
    "maxdepth",
    "max-filesize",
    "dfa-size-limit",
    "regex-size-limit",
    "engine",
    "path-separator",
    "sort",
    "sortr",
    "field-context-separator",
    "field-match-separator",
    "context-separator",
    "colors",
    "hyperlink-format",
    "ignore-file",
    "pre",
    "pre-glob",
    "hostname-bin",
  ],
  longOptional: ["color", "colour"],
};

/** rg options that run a program: --pre runs a preprocessor, -z runs decompressors, --hostname-bin a program. */
const RG_RUNS = ["--pre", "--pre-glob", "--hostname-bin", "-z", "--search-zip"];

/** rg options whose globs and types let files in past the hidden and ignore rules (`rg -g .env`). */
const RG_WHITELISTS = ["-g", "--glob", "--iglob", "-t", "--type", "--type-add"];

export const rg: Handler = (s) => {
  // parsed first: `-iz` is `-i -z`, and a value (`-e -z`) is no option
  const p = strictOptions(s.args, RG);
  if (unknownOptions(s, p.unknown)) return;
  const runs = RG_RUNS.find((o) => p.options.has(o));
  if (runs !== undefined) return s.ask(`rg ${runs} runs another program`);
  for (const key of ["-f", "--file", "--ignore-file"]) for (const f of p.options.get(key) ?? []) read(s, f);
  const listing = p.options.has("--files") || p.options.has("--type-list");
  const patternGiven = ["-e", "--regexp", "-f", "--file"].some((o) => p.options.has(o));
  const operands = listing || patternGiven ? p.operands : p.operands.slice(1);
  // rg skips hidden and ignored files (.env among them) unless told otherwise: a glob or a type
  // it is given, or an ignore file's `!` line, lets them in past that (scan.ts reads the files)
  const everything = [
    "-u",
    "--unrestricted",
    "--hidden",
    "-.",
    "--no-ignore",
    "--no-ignore-dot",
    "--no-ignore-vcs",
    "--no-ignore-files",
    ...RG_WHITELISTS,
  ].some((o) => p.options.has(o));
  const follows = p.options.has("-L") || p.options.has("--follow");
  const at = {
    subtree: true,
    ...(listing ? {} : everything || follows ? { contents: true } : { visible: true }),
    ...(follows ? { follows: true } : {}),
  };
  if (operands.length === 0) s.read(".", at);
  for (const o of operands) if (o.value !== "-") s.read(o, at);
  s.readOnly("rg, read-only form");
};

/** find's tests that take one value (and read nothing but names and metadata). */
const FIND_VALUED = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-regex",
  "-iregex",
  "-regextype",
  "-type",
  "-xtype",
  "-size",
  "-mtime",
  "-mmin",
  "-atime",
  "-amin",
  "-ctime",
  "-cmin",
  "-used",
  "-perm",
  "-user",
  "-group",
  "-uid",
  "-gid",
  "-links",
  "-inum",
  "-maxdepth",
  "-mindepth",
  "-lname",
  "-ilname",
  "-printf",
  "-fstype",
]);
const FIND_FLAGS = new Set([
  "-print",
  "-print0",
  "-ls",
  "-prune",
  "-quit",
  "-depth",
  "-d",
  "-follow",
  "-mount",
  "-xdev",
  "-true",
  "-false",
  "-not",
  "-a",
  "-o",
  "-and",
  "-or",
  "!",
  "(",
  ")",
  ",",
  "-empty",
  "-readable",
  "-writable",
  "-executable",
  "-noleaf",
  "-daystart",
  "-nouser",
  "-nogroup",
  "-ignore_readdir_race",
  "-noignore_readdir_race",
]);
/** Tests that compare with another file: the file is read (its metadata). */
const FIND_READS = new Set(["-newer", "-anewer", "-cnewer", "-samefile"]);

export const find: Handler = (s) => {
  const roots: Word[] = [];
  let i = 0;
  // leading options (-H -L -P -O3), then the roots, then the expression; the last of -L and -P wins
  let follows = false;
  while (i < s.args.length && /^-(H|L|P|O\d*)$/.test(s.args[i]!.value ?? "")) {
    const v = s.args[i]!.value;
    if (v === "-L") follows = true;
    else if (v === "-P" || v === "-H") follows = false;
    i++;
  }
  while (i < s.args.length) {
    const v = s.args[i]!.value;
    if (v !== undefined && (v.startsWith("-") || v === "(" || v === "!" || v === ",")) break;
    roots.push(s.args[i]!);
    i++;
  }
  if (roots.length === 0) roots.push(literal("."));
  let readOnly = true;
  for (; i < s.args.length; i++) {
    const w = s.args[i]!;
    const v = w.value;
    if (v === undefined) return s.ask(`find is given an expression only known when it runs (${w.raw})`);
    if (v === "-follow") follows = true;
    if (FIND_FLAGS.has(v)) continue;
    if (FIND_VALUED.has(v)) {
      i++;
      continue;
    }
    if (FIND_READS.has(v) || /^-newer[amctB][amctB]$/.test(v)) {
      const f = s.args[++i];
      if (f && !/^-newer[amctB]t$/.test(v)) s.read(f);
      continue;
    }
    if (v === "-delete") {
      readOnly = false;
      for (const r of roots) s.write(r, { subtree: true });
    } else if (v === "-fprint" || v === "-fprint0" || v === "-fls" || v === "-fprintf") {
      readOnly = false;
      const f = s.args[i + 1];
      if (f) s.write(f);
      i += v === "-fprintf" ? 2 : 1;
    } else if (v === "-exec" || v === "-execdir" || v === "-ok" || v === "-okdir") {
      readOnly = false;
      const inner: Word[] = [];
      for (i++; i < s.args.length; i++) {
        const t = s.args[i]!.value;
        if (t === ";" || (t === "+" && inner.at(-1)?.value === "{}")) break;
        inner.push(s.args[i]!);
      }
      if (inner.length > 0) s.run(inner, { placeholderRoots: roots });
    } else
      return s.ask(
        `find ${v}: a test or action the classifier does not know (it may write or run a program)`,
      );
  }
  // -L and -follow walk into what symlinks lead to: judged on everything it can reach (scan.ts)
  for (const r of roots) s.read(r, { subtree: true, ...(follows ? { follows: true } : {}) });
  if (readOnly) s.readOnly("find without -exec, -delete or -fprint");
};

function unknownOptions(s: Site, unknown: string[]): boolean {
  if (unknown.length === 0) return false;
  s.ask(
    `${s.name} with ${unknown.join(" ")}: an option the classifier does not know (it may write or run a program)`,
  );
  return true;
}

function read(s: Site, value: string): void {
  s.read(value === "\0" ? dynamicWord(value) : value);
}
