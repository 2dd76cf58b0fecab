import { has, type OptionSpec, parseOptions, valuesOf } from "../options.js";
import { dynamicWord, each, type Handler } from "./site.js";

// Each table below is the command's own getopt: which options take a value, so that the
// operands (the files it writes) are found exactly. Hand-written: no library knows them.

export const rm: Handler = (s) => {
  const p = parseOptions(s.args, { long: [] });
  each(s, p.operands, has(p, "-r", "-R", "--recursive"));
};

export const simpleTargets =
  (spec: OptionSpec = {}): Handler =>
  (s) =>
    each(s, parseOptions(s.args, spec).operands);

export const chmodLike =
  (spec: OptionSpec): Handler =>
  (s) => {
    const p = parseOptions(s.args, spec);
    const targets = p.options.has("--reference") ? p.operands : p.operands.slice(1);
    each(s, targets, has(p, "-R", "--recursive"));
  };

export const copyLike =
  (removesSources: boolean): Handler =>
  (s) => {
    const p = parseOptions(s.args, {
      short: "tS",
      long: ["target-directory", "suffix", "backup", "reflink", "sparse", "preserve", "no-preserve"],
    });
    const targetDir = valuesOf(p, "-t", "--target-directory");
    const recursive = removesSources || has(p, "-r", "-R", "--recursive", "-a", "--archive");
    // the sources are read (whole folders with -r): `cp .env x.txt` gives .env's contents another name
    const sources = targetDir.length > 0 ? p.operands : p.operands.slice(0, -1);
    for (const w of sources) s.read(w, recursive ? { subtree: true } : {});
    if (targetDir.length > 0) {
      for (const d of targetDir) s.write(d === "\0" ? dynamicWord(d) : d, { subtree: recursive });
      if (removesSources) each(s, p.operands, true);
      return;
    }
    if (p.operands.length === 0) return;
    const dest = p.operands[p.operands.length - 1]!;
    // into a folder it writes the names below it: the whole of dest, to be exact
    s.write(dest, { subtree: true });
    if (removesSources) each(s, p.operands.slice(0, -1), true);
  };

export const ln: Handler = (s) => {
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
  } else if (p.operands.length > 1)
    // a folder as the last operand gets the links inside it
    s.write(p.operands[p.operands.length - 1]!, { subtree: true });
};

export const install: Handler = (s) => {
  const p = parseOptions(s.args, {
    short: "mogtSD",
    long: ["mode", "owner", "group", "target-directory", "suffix"],
  });
  const targetDir = valuesOf(p, "-t", "--target-directory");
  if (has(p, "-d", "--directory")) return each(s, p.operands);
  for (const w of targetDir.length > 0 ? p.operands : p.operands.slice(0, -1)) s.read(w);
  if (targetDir.length > 0) for (const d of targetDir) s.write(d);
  else if (p.operands.length > 1) s.write(p.operands[p.operands.length - 1]!);
};

export const tee: Handler = (s) => {
  const p = parseOptions(s.args, { long: ["output-error"] });
  each(
    s,
    p.operands.filter((w) => w.value !== "-"),
  );
};

export const dd: Handler = (s) => {
  for (const w of s.args) {
    if (w.value === undefined) {
      if (/^[io]f=/.test(w.raw)) s.ask(`dd opens a file only known when it runs (${w.raw})`);
      continue;
    }
    if (w.value.startsWith("of=")) s.write(w.value.slice(3));
    if (w.value.startsWith("if=")) s.read(w.value.slice(3));
  }
};

export const mktemp: Handler = (s) => {
  const p = parseOptions(s.args, { short: "p", long: ["tmpdir", "suffix"] });
  if (has(p, "-u", "--dry-run")) return;
  const dir = valuesOf(p, "-p", "--tmpdir").filter((d) => d !== "");
  const template = p.operands[0]?.value;
  if (dir.length > 0) s.write(dir[0]!);
  else if (template?.includes("/") && !has(p, "-t"))
    s.write(template.slice(0, template.lastIndexOf("/")) || "/");
  else s.write("/tmp");
};
