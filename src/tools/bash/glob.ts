import { lstatSync, readdirSync } from "node:fs";
import { childProcess } from "../../util/child-process.js";
import { isDirectory } from "../../util/file-kind.js";
import type { CheckBudget } from "./budget.js";

// Bash's pathname expansion (default options: no dotglob, nullglob, failglob, extglob; globskipdots
// and globasciiranges on, as bash 5.2 starts), written from its manual and checked against bash
// itself (test/tools/bash/expansion.test.ts). Hand-written: picomatch, which this replaced, reads
// `[!x]` as a literal `!` and compiles a pattern to a backtracking regular expression, so one
// crafted file name made a check of `*a*a*a*a*a*a*b` take minutes. This matcher is the classic
// two-pointer one: each name costs at most (name length) x (pattern length) steps, and names
// are at most 255 bytes, so the work is linear in the pattern and in the folder's size.

/** Why an expansion cannot be predicted: the call asks, naming it. */
export class GlobUnknown extends Error {}

type Element =
  | { kind: "char"; c: string }
  | { kind: "any" }
  | { kind: "star" }
  | { kind: "set"; negated: boolean; test: (c: string) => boolean };

export interface Segment {
  elements: Element[];
  /** Only `*` and literal characters: the match is the same in every locale. */
  localeFree: boolean;
  /** Starts with a literal `.`: it may match a name that starts with one. */
  dot: boolean;
}

/** Whether bash takes the word for a pattern at all: an unquoted `*`, `?`, or `[` with a `]` after it. */
export function isPattern(text: string): boolean {
  if (/[*?]/.test(text)) return true;
  const open = text.indexOf("[");
  return open >= 0 && text.indexOf("]", open + 1) > open;
}

const CLASSES: Record<string, (c: string) => boolean> = {
  alnum: (c) => /^[A-Za-z0-9]$/.test(c),
  alpha: (c) => /^[A-Za-z]$/.test(c),
  ascii: (c) => c.charCodeAt(0) < 0x80,
  blank: (c) => c === " " || c === "\t",
  cntrl: (c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f,
  digit: (c) => /^[0-9]$/.test(c),
  graph: (c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) < 0x7f,
  lower: (c) => /^[a-z]$/.test(c),
  print: (c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) < 0x7f,
  punct: (c) => /^[!-/:-@[-`{-~]$/.test(c),
  space: (c) => /^[ \t\n\r\f\v]$/.test(c),
  upper: (c) => /^[A-Z]$/.test(c),
  word: (c) => /^[A-Za-z0-9_]$/.test(c),
  xdigit: (c) => /^[0-9A-Fa-f]$/.test(c),
};

/** One path segment of a pattern (no `/` in it). Throws GlobUnknown for what is not modelled. */
export function compileSegment(pattern: string): Segment {
  const elements: Element[] = [];
  let localeFree = true;
  // a `[` with no `]` after it is literal: known without scanning from each one (128 KiB of `[`)
  const lastClose = pattern.lastIndexOf("]");
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*") {
      if (elements.at(-1)?.kind !== "star") elements.push({ kind: "star" });
    } else if (c === "?") {
      elements.push({ kind: "any" });
      localeFree = false;
    } else if (c === "[" && lastClose > i + 1) {
      const set = bracket(pattern, i);
      if (set === undefined) elements.push({ kind: "char", c });
      else {
        elements.push(set.element);
        i = set.end;
        localeFree = false;
      }
    } else elements.push({ kind: "char", c });
  }
  return { elements, localeFree, dot: pattern.startsWith(".") };
}

/** `[...]` from `open`: the set and the index of its `]`, or undefined when it is not closed (then `[` is literal). */
function bracket(p: string, open: number): { element: Element; end: number } | undefined {
  let i = open + 1;
  const negated = p[i] === "!" || p[i] === "^";
  if (negated) i++;
  const tests: Array<(c: string) => boolean> = [];
  let first = true;
  for (; i < p.length; i++) {
    const c = p[i]!;
    if (c === "]" && !first) {
      const test = (x: string) => tests.some((t) => t(x));
      return { element: { kind: "set", negated, test }, end: i };
    }
    first = false;
    if (c === "[" && (p[i + 1] === ":" || p[i + 1] === "=" || p[i + 1] === ".")) {
      const kind = p[i + 1]!;
      const close = p.lastIndexOf(`${kind}]`) < i + 2 ? -1 : p.indexOf(`${kind}]`, i + 2);
      if (close < 0) {
        tests.push((x) => x === c);
        continue;
      }
      const name = p.slice(i + 2, close);
      if (kind === ":") {
        const cls = CLASSES[name];
        if (cls === undefined) throw new GlobUnknown(`the character class [:${name}:]`);
        tests.push(cls);
      } else {
        // [=a=] and [.a.] of one ASCII character are that character; named symbols are not modelled
        if (!/^[\x20-\x7e]$/.test(name)) throw new GlobUnknown(`the bracket item [${kind}${name}${kind}]`);
        tests.push((x) => x === name);
      }
      i = close + 1;
      continue;
    }
    if (p[i + 1] === "-" && p[i + 2] !== undefined && p[i + 2] !== "]") {
      const hi = p[i + 2]!;
      if (hi === "[") throw new GlobUnknown(`the range ${c}-[ in a bracket`);
      if (c.charCodeAt(0) > 0x7f || hi.charCodeAt(0) > 0x7f)
        throw new GlobUnknown(`the range ${c}-${hi}, which depends on the locale`);
      const lo = c.charCodeAt(0);
      const top = hi.charCodeAt(0);
      tests.push((x) => x.charCodeAt(0) >= lo && x.charCodeAt(0) <= top && x.length === 1);
      i += 2;
      continue;
    }
    tests.push((x) => x === c);
  }
  return undefined;
}

/**
 * Whether `name` matches the segment as bash's strmatch does for pathname expansion: a leading
 * `.` only when the pattern starts with one. Two pointers, the last `*`
 * the only one retried: O(name x pattern), no backtracking beyond that.
 */
export function matchSegment(seg: Segment, name: string, budget?: CheckBudget): boolean {
  if (name.startsWith(".") && !seg.dot) return false;
  const el = seg.elements;
  let i = 0;
  let p = 0;
  let star = -1;
  let mark = 0;
  while (i < name.length) {
    budget?.tick(4096);
    const e = el[p];
    if (e !== undefined && e.kind !== "star" && one(e, name[i]!)) {
      i++;
      p++;
    } else if (e?.kind === "star") {
      star = p++;
      mark = i;
    } else if (star >= 0) {
      p = star + 1;
      i = ++mark;
    } else return false;
  }
  while (el[p]?.kind === "star") p++;
  return p === el.length;
}

function one(e: Element, c: string): boolean {
  if (e.kind === "char") return e.c === c;
  if (e.kind === "any") return true;
  if (e.kind === "set") return e.test(c) !== e.negated;
  return false;
}

/** A glob that names more files than this asks instead of listing each path. */
export const GLOB_MAX_MATCHES = 1000;

/**
 * The file names `pattern` names now, as bash expands it from `cwd`: each segment with a pattern
 * matched against the folder's names (sorted as the C locale sorts), a literal segment after a
 * pattern kept where it exists (lstat), a pattern that matches nothing left as written.
 * undefined past GLOB_MAX_MATCHES. Throws GlobUnknown where the answer depends on what is not
 * modelled (a name that is not UTF-8, a non-ASCII name against `?` or a bracket, whose match
 * depends on the locale).
 */
export function expandPathname(pattern: string, cwd: string, budget?: CheckBudget): string[] | undefined {
  const absolute = pattern.startsWith("/");
  const parts = pattern.split("/");
  if (absolute) parts.shift();
  let current: string[] = [absolute ? "/" : ""];
  let globbed = false;
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]!;
    const last = k === parts.length - 1;
    // as written: `a//b` and `d/.` stay so (a path module would fold them, and `a/.` exists only for a folder)
    const join = (dir: string, name: string) =>
      dir === "" ? name : dir === "/" ? `/${name}` : `${dir}/${name}`;
    const at = (n: string) => (n.startsWith("/") ? n : `${cwd}/${n}`);
    if (!isPattern(part)) {
      const next = current.map((d) => join(d, part));
      // after a pattern, bash keeps only the paths that exist (a trailing `/` keeps folders)
      current = globbed
        ? next.filter((n) => (part === "" && last ? isDirectory(at(n)) : exists(at(n))))
        : next;
      continue;
    }
    globbed = true;
    const seg = compileSegment(part);
    const next: string[] = [];
    for (const dir of current) {
      for (const name of namesIn(dir === "" ? cwd : at(dir), seg, budget)) {
        if (!matchSegment(seg, name, budget)) continue;
        next.push(join(dir, name));
        if (next.length > GLOB_MAX_MATCHES) return undefined;
      }
    }
    current = next;
    if (current.length === 0) break;
  }
  return current.length === 0 ? [pattern] : current;
}

function namesIn(dir: string, seg: Segment, budget?: CheckBudget): string[] {
  let raw: Buffer[];
  try {
    raw = readdirSync(dir, { encoding: "buffer" });
  } catch {
    return []; // not a folder, or not readable: bash finds nothing there either
  }
  // the C locale's order: by bytes (for UTF-8, the order of code points)
  raw.sort(Buffer.compare);
  const names: string[] = [];
  // bash before 5.2 (globskipdots) lets a pattern that starts with `.` match `.` and `..`
  if (seg.dot && !bashSkipsDots()) names.push(".", "..");
  for (const b of raw) {
    budget?.tick(256);
    const name = b.toString("utf8");
    if (!Buffer.from(name, "utf8").equals(b))
      throw new GlobUnknown(`a file name in ${dir} that is not UTF-8 (the pattern may match it)`);
    if (!seg.localeFree && /[^\x00-\x7f]/.test(name))
      throw new GlobUnknown(`the file name ${JSON.stringify(name)}, whose match depends on the locale`);
    names.push(name);
  }
  return names;
}

let skipsDots: boolean | undefined;

/** Whether /bin/bash is 5.2 or later, whose pathname expansion never yields `.` or `..`. Asked once. */
function bashSkipsDots(): boolean {
  if (skipsDots === undefined) {
    const r = childProcess().spawnSync(
      "/bin/bash",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own expansion
      ["-c", 'echo "${BASH_VERSINFO[0]} ${BASH_VERSINFO[1]}"'],
      {
        encoding: "utf8",
        timeout: 2000,
      },
    );
    const [major, minor] = (r.stdout ?? "").trim().split(" ").map(Number);
    skipsDots = major !== undefined && minor !== undefined && (major > 5 || (major === 5 && minor >= 2));
  }
  return skipsDots;
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
