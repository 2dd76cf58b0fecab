import { wildcard } from "../util/wildcard.js";

/**
 * Globs of permission rules, matched in time linear in the value (times the pattern's size).
 *
 * Text globs (patterns, parameter values, tool names): `*` is any run of characters, "/" included
 * (so a deny rule "git push *" also catches "git push origin/main"), `?` one character.
 *
 * Path globs keep picomatch's path semantics (dotfiles included): `*` and `?` stay inside one
 * segment, a `**` segment spans any number of segments, `[...]` classes, `{a,b}` alternatives.
 * Hand-written rather than picomatch: picomatch compiles to a backtracking RegExp, and a rule like
 * `**` + `/*a*b*c*` against a long path that nearly matches ran for minutes (exponential in the
 * stars). Here the glob becomes a small automaton that is simulated over the value once, keeping
 * the set of states it can be in: O(value length x glob length), whatever the glob.
 */

/** Longest glob a rule may hold (characters). */
export const GLOB_MAX_CHARS = 1024;
/** Most alternatives `{a,b}` may expand to. */
export const GLOB_MAX_ALTERNATIVES = 64;

/** A text glob compiled once: `.test(value)`. */
export function textGlob(glob: string): { test(value: string): boolean } {
  return wildcard(glob);
}

/** Tool names, namespaces and actions: text-glob semantics (names hold no path structure). */
export function nameGlob(glob: string): (name: string) => boolean {
  const w = wildcard(glob);
  return (name) => w.test(name);
}

/** Why a path glob cannot be used, or undefined. */
export function pathGlobProblem(glob: string): string | undefined {
  if (glob.length > GLOB_MAX_CHARS) return `is longer than ${GLOB_MAX_CHARS} characters`;
  if (glob.startsWith("!"))
    return "starts with ! (negation is not supported: write a deny rule, or list what to allow)";
  if (/[!@+*?]\(/.test(glob)) return "uses an extglob like +(...) or !(...), which rules do not support";
  if (/\[:[a-z]+:\]/.test(glob)) return "uses a POSIX class like [:alpha:]; write the range, e.g. [a-zA-Z]";
  if (/\{[^{},]*\.\.[^{},]*\}/.test(glob)) return "uses a range like {1..3}; list the values, e.g. {1,2,3}";
  try {
    if (expandBraces(glob).length > GLOB_MAX_ALTERNATIVES)
      return `expands to more than ${GLOB_MAX_ALTERNATIVES} alternatives`;
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

const pathMatchers = new Map<string, (p: string) => boolean>();
const PATH_CACHE_MAX = 2048;

/** A path glob compiled once per (glob, case); `nocase` for rules that must fail closed. */
export function pathGlob(glob: string, nocase: boolean): (p: string) => boolean {
  const key = `${nocase ? "i" : "c"}:${glob}`;
  let matcher = pathMatchers.get(key);
  if (!matcher) {
    const problem = pathGlobProblem(glob);
    if (problem !== undefined) throw new Error(`path glob ${JSON.stringify(glob)} ${problem}`);
    const machines = expandBraces(normalizeGlob(glob.normalize("NFC"))).map((alt) => ({
      machine: compilePath(alt, nocase),
      ...literalEnds(alt, nocase),
    }));
    matcher = (p: string) => {
      const value = nocase ? p.toLowerCase() : p;
      // the literal ends first: most paths fail them, and they cost a string compare, not a run
      return machines.some(
        (m) =>
          value.length >= m.prefix.length + m.suffix.length &&
          value.startsWith(m.prefix) &&
          value.endsWith(m.suffix) &&
          run(m.machine, value),
      );
    };
    if (pathMatchers.size >= PATH_CACHE_MAX) pathMatchers.clear();
    pathMatchers.set(key, matcher);
  }
  return matcher;
}

/**
 * The literal text every match of one alternative starts and ends with: the glob's characters up
 * to the first `*`, `?`, `[` or backslash (and after the last), folded as the automaton folds
 * them. A "/" next to a `*` is dropped (a trailing "/ and two stars" also matches the head alone,
 * a leading "two stars and /" the rest alone), so
 * the ends are a necessary condition only: a path without them cannot match, one with them is
 * run through the automaton.
 */
function literalEnds(alt: string, nocase: boolean): { prefix: string; suffix: string } {
  const chars = [...alt];
  const special = (c: string) => c === "*" || c === "?" || c === "[" || c === "\\";
  let first = chars.findIndex(special);
  if (first < 0) first = chars.length;
  // a class ends with "]": the suffix starts after the last "]" too (conservatively, any "]")
  let last = chars.length - 1;
  while (last >= 0 && !special(chars[last]!) && chars[last] !== "]") last--;
  if (first === chars.length) last = -1;
  let head = chars.slice(0, first);
  let tail = last < 0 ? [] : chars.slice(last + 1);
  if (first < chars.length && head.at(-1) === "/") head = head.slice(0, -1);
  if (last >= 0 && tail[0] === "/") tail = tail.slice(1);
  // a glob with no wildcard at all: its prefix is the whole text, and the suffix adds nothing
  if (last < 0) tail = [];
  const folded = (list: string[]) => list.map((c) => fold(c, nocase)).join("");
  return { prefix: folded(head), suffix: folded(tail) };
}

/** `{a,b}` alternatives, nested ones too; a brace with no top-level comma is literal text. */
function expandBraces(glob: string): string[] {
  const open = findBrace(glob);
  if (open === undefined) return [glob];
  const { start, end, options } = open;
  const out: string[] = [];
  for (const option of options) {
    for (const rest of expandBraces(glob.slice(0, start) + option + glob.slice(end + 1))) {
      out.push(rest);
      if (out.length > GLOB_MAX_ALTERNATIVES) return out;
    }
  }
  return out;
}

/** The first `{...}` holding a top-level comma: its span and options. */
function findBrace(glob: string): { start: number; end: number; options: string[] } | undefined {
  for (let i = 0; i < glob.length; i++) {
    if (glob[i] === "\\") {
      i++;
      continue;
    }
    if (glob[i] !== "{") continue;
    let depth = 0;
    const commas: number[] = [];
    for (let j = i; j < glob.length; j++) {
      const c = glob[j];
      if (c === "\\") {
        j++;
        continue;
      }
      if (c === "{") depth++;
      else if (c === "}") {
        depth--;
        if (depth === 0) {
          if (commas.length === 0) break; // `{abc}` is literal
          const cuts = [i, ...commas, j];
          const options = cuts.slice(1).map((cut, k) => glob.slice(cuts[k]! + 1, cut));
          return { start: i, end: j, options };
        }
      } else if (c === "," && depth === 1) commas.push(j);
    }
  }
  return undefined;
}

/** One automaton state: character edges and epsilon moves. */
interface State {
  edges: Array<{ test: (c: string) => boolean; to: number }>;
  eps: number[];
}

interface Machine {
  states: State[];
  accept: number;
}

const isSlash = (c: string) => c === "/";
const notSlash = (c: string) => c !== "/";
const anyChar = () => true;

/** A leading "./" and a trailing "/" say nothing about a resolved path (which has neither). */
function normalizeGlob(raw: string): string {
  let glob = raw;
  while (glob.startsWith("./")) glob = glob.slice(2);
  if (glob.length > 1 && glob.endsWith("/") && !glob.endsWith("\\/")) glob = glob.slice(0, -1);
  return glob;
}

/** Compiles one brace-free path glob. */
function compilePath(glob: string, nocase: boolean): Machine {
  // consecutive `**` segments mean the same as one
  const segments = glob.split("/").filter((s, i, all) => !(s === "**" && all[i - 1] === "**"));
  const states: State[] = [];
  const add = (): number => states.push({ edges: [], eps: [] }) - 1;
  let cur = add();
  const last = segments.length - 1;
  segments.forEach((seg, i) => {
    if (seg === "**") {
      if (segments.length === 1) {
        states[cur]!.edges.push({ test: anyChar, to: cur });
        return;
      }
      if (i === 0) {
        // `**/rest`: nothing, or any segments each ending in "/"
        const inside = add();
        states[cur]!.edges.push({ test: anyChar, to: inside });
        states[inside]!.edges.push({ test: anyChar, to: inside }, { test: isSlash, to: cur });
        return;
      }
      if (i === last) {
        // `head/**`: the head itself, or anything below it
        const below = add();
        const end = add();
        states[cur]!.eps.push(end);
        states[cur]!.edges.push({ test: isSlash, to: below });
        states[below]!.edges.push({ test: anyChar, to: below });
        states[below]!.eps.push(end);
        cur = end;
        return;
      }
      // `head/**/rest`: one "/", then any segments each ending in "/"
      const after = add();
      const inside = add();
      states[cur]!.edges.push({ test: isSlash, to: after });
      states[after]!.edges.push({ test: anyChar, to: inside });
      states[inside]!.edges.push({ test: anyChar, to: inside }, { test: isSlash, to: after });
      cur = after;
      return;
    }
    // the "/" before this segment, unless the previous one was a `**` that already ends in one
    if (i > 0 && segments[i - 1] !== "**") {
      const next = add();
      states[cur]!.edges.push({ test: isSlash, to: next });
      cur = next;
    }
    cur = compileSegment(seg, nocase, states, add, cur);
  });
  return { states, accept: cur };
}

/** Characters of one segment: literal text, `*`, `?`, `[...]`, `\\x`. */
function compileSegment(
  seg: string,
  nocase: boolean,
  states: State[],
  add: () => number,
  start: number,
): number {
  let cur = start;
  const chars = [...seg];
  const step = (test: (c: string) => boolean) => {
    const next = add();
    states[cur]!.edges.push({ test, to: next });
    cur = next;
  };
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === "\\" && i + 1 < chars.length) {
      const lit = fold(chars[++i]!, nocase);
      step((x) => x === lit);
    } else if (c === "*") {
      while (chars[i + 1] === "*") i++;
      const loop = add();
      states[cur]!.eps.push(loop);
      states[loop]!.edges.push({ test: notSlash, to: loop });
      cur = loop;
    } else if (c === "?") {
      step(notSlash);
    } else if (c === "[") {
      const parsed = parseClass(chars, i, nocase);
      if (parsed) {
        i = parsed.end;
        step(parsed.test);
      } else step((x) => x === "[");
    } else {
      const lit = fold(c, nocase);
      step((x) => x === lit);
    }
  }
  return cur;
}

/** `[abc]`, `[a-z]`, `[!a]` / `[^a]`; a "]" right after the opening is literal. Never matches "/". */
function parseClass(
  chars: string[],
  open: number,
  nocase: boolean,
): { end: number; test: (c: string) => boolean } | undefined {
  let i = open + 1;
  const negate = chars[i] === "!" || chars[i] === "^";
  if (negate) i++;
  const ranges: Array<[string, string]> = [];
  let first = true;
  for (; i < chars.length; i++) {
    let c = chars[i]!;
    if (c === "]" && !first) {
      const test = (x: string) => {
        if (x === "/") return false;
        const candidates = nocase ? [x, x.toUpperCase()] : [x];
        const hit = candidates.some((y) => ranges.some(([lo, hi]) => y >= lo && y <= hi));
        return negate ? !hit : hit;
      };
      return { end: i, test };
    }
    first = false;
    if (c === "\\" && i + 1 < chars.length) c = chars[++i]!;
    if (chars[i + 1] === "-" && i + 2 < chars.length && chars[i + 2] !== "]") {
      ranges.push([c, chars[i + 2]!]);
      i += 2;
    } else ranges.push([c, c]);
  }
  return undefined;
}

function fold(c: string, nocase: boolean): string {
  return nocase ? c.toLowerCase() : c;
}

let scratch = new Int32Array(64);
let stamps = 0;

/** Runs the automaton over the value once, keeping the set of states it can be in. */
function run(m: Machine, value: string): boolean {
  const n = m.states.length;
  // one scratch array for every run (run is synchronous and never nested): a stamp is never
  // reused, so nothing is cleared between runs and nothing is allocated per path
  if (scratch.length < n || stamps > 2_000_000_000) {
    scratch = new Int32Array(Math.max(n, scratch.length));
    stamps = 0;
  }
  const mark = scratch;
  let current: number[] = [];
  const close = (list: number[], stamp: number, s: number) => {
    const stack = [s];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (mark[x] === stamp) continue;
      mark[x] = stamp;
      list.push(x);
      for (const e of m.states[x]!.eps) stack.push(e);
    }
  };
  let stamp = ++stamps;
  close(current, stamp, 0);
  for (const c of value) {
    stamp = ++stamps;
    const next: number[] = [];
    for (const s of current) {
      for (const edge of m.states[s]!.edges) if (edge.test(c)) close(next, stamp, edge.to);
    }
    if (next.length === 0) return false;
    current = next;
  }
  return current.includes(m.accept);
}
