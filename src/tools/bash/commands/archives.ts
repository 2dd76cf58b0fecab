import { has, parseOptions, valuesOf } from "../options.js";
import { dynamicWord, each, type Handler } from "./site.js";

export const tar: Handler = (s) => {
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
    // what goes into the archive is read, whole folders (-C moves where: not followed here)
    if (valuesOf(p, "-C", "--directory").length > 0)
      return s.ask("tar -C reads its inputs from another folder");
    for (const w of operands) s.read(w, { subtree: true, contents: true });
  }
};

export const unzip: Handler = (s) => {
  const p = parseOptions(s.args, { short: "dxP", long: [] });
  if (has(p, "-l", "-t", "-v", "-p", "-Z", "-z")) return;
  const d = valuesOf(p, "-d");
  s.write(d.length > 0 ? d[d.length - 1]! : ".", { subtree: true });
};

export const zip: Handler = (s) => {
  const p = parseOptions(s.args, { short: "bnPtx", long: [] });
  if (p.operands.length > 0) s.write(p.operands[0]!);
  for (const w of p.operands.slice(1)) s.read(w, { subtree: true, contents: true });
  if (has(p, "-m", "--move")) each(s, p.operands.slice(1), true);
};

export const compressor: Handler = (s) => {
  const p = parseOptions(s.args, { short: "S", long: ["suffix"] });
  if (has(p, "-c", "--stdout", "-l", "--list", "-t", "--test")) return;
  // gzip x writes x.gz and removes x; both are beside x
  each(s, p.operands);
};

export const patch: Handler = (s) => {
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

export const rsync: Handler = (s) => {
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
  for (const w of p.operands.slice(0, -1)) s.read(w, { subtree: true });
  if (has(p, "--remove-source-files")) each(s, p.operands.slice(0, -1), true);
};
