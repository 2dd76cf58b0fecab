import type { CheckBudget } from "./budget.js";

// Bash's brace expansion, written from its manual and checked against bash itself
// (test/tools/bash/expansion.test.ts draws words and compares with `bash -c`). Hand-written:
// the packages that expand braces (braces, brace-expansion) follow other rules (no letter ranges,
// other answers for unbalanced braces), and a classifier that expands differently from bash reads
// other files than the ones bash opens (`.en{v..v}` is .env).
//
// The text is plain: the caller gives only words with no quote, backslash or expansion in them
// (others ask), so bash's handling of those is not needed here.

/** Braces in one word the expansion is tried on; more ask (no command line needs them, and each may rescan the word). */
const MAX_BRACES = 256;

/** Why a brace expansion is not modelled (a sequence of characters that are not letters). */
export class BraceUnknown extends Error {}

/**
 * The words bash makes of `text` by brace expansion, in its order, empty words dropped (bash
 * removes unquoted empty words); undefined past `max` words. Throws BraceUnknown where bash's
 * result would go through quote removal again (a character range over `[\]^_\``).
 */
export function expandBraces(text: string, max: number, budget?: CheckBudget): string[] | undefined {
  // each `{` may scan the rest of the word for its `}`: past this many, not worth the time
  let braces = 0;
  for (const c of text)
    if (c === "{" && ++braces > MAX_BRACES)
      throw new BraceUnknown(`more than ${MAX_BRACES} braces in one word`);
  const out = expand(text, max, budget);
  return out?.filter((w) => w !== "");
}

function expand(text: string, max: number, budget?: CheckBudget): string[] | undefined {
  budget?.tick();
  // the first `{` that opens a well-formed expression: one with a `,` or `..` at its own level
  let open = -1;
  for (let i = 0; ; i++) {
    const at = gobble(text, i, "{");
    if (at === undefined) break;
    if (gobble(text, at + 1, "}") !== undefined) {
      open = at;
      break;
    }
    i = at;
  }
  if (open < 0) return [text];
  const close = gobble(text, open + 1, "}")!;
  const preamble = text.slice(0, open);
  const amble = text.slice(open + 1, close);
  const postamble = text.slice(close + 1);
  let tack: string[] | undefined;
  if (!amble.includes(",")) {
    const seq = sequence(amble, max);
    if (seq === null) return undefined;
    tack = seq;
    if (tack === undefined) {
      // not a sequence: the braces stay as text, and the rest of the word may still expand
      if (postamble === "") return [text];
      tack = [text.slice(open, close + 1)];
    }
  } else {
    tack = [];
    for (const part of splitTopLevel(amble)) {
      const more = expand(part, max, budget);
      if (more === undefined) return undefined;
      tack.push(...more);
      if (tack.length > max) return undefined;
    }
  }
  let result = product([preamble], tack, max);
  if (result !== undefined && postamble !== "") {
    const rest = expand(postamble, max, budget);
    result = rest === undefined ? undefined : product(result, rest, max);
  }
  return result;
}

/**
 * The index of the first `satisfy` at nesting level 0 from `from`, or undefined. For `}` it must
 * follow a `,` or `..` at that level (else the braces are text); a `{` between blanks (or before
 * `}`) does not open one.
 */
function gobble(text: string, from: number, satisfy: "{" | "}" | ","): number | undefined {
  let level = 0;
  // (at most MAX_BRACES scans of the word: expandBraces counts them first)
  let separators = satisfy === "}" ? 0 : 1;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === satisfy && level === 0 && separators > 0) {
      if (c === "{" && (i === 0 || blank(text[i - 1])) && (blank(text[i + 1]) || text[i + 1] === "}"))
        continue;
      return i;
    }
    if (c === "{") level++;
    else if (c === "}" && level > 0) level--;
    else if (
      satisfy === "}" &&
      level === 0 &&
      (c === "," || (text.startsWith("..", i) && text[i + 2] !== "}"))
    )
      separators++;
  }
  return undefined;
}

function blank(c: string | undefined): boolean {
  return c === undefined || c === " " || c === "\t" || c === "\n";
}

/** The amble split at its top-level commas. */
function splitTopLevel(amble: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (;;) {
    const comma = gobble(amble, start, ",");
    if (comma === undefined) {
      parts.push(amble.slice(start));
      return parts;
    }
    parts.push(amble.slice(start, comma));
    start = comma + 1;
  }
}

function product(a: readonly string[], b: readonly string[], max: number): string[] | undefined {
  if (a.length * b.length > max) return undefined;
  const out: string[] = [];
  for (const x of a) for (const y of b) out.push(x + y);
  return out;
}

const INTEGER = /^\s*[+-]?\d+\s*$/;
const LETTER = /^[A-Za-z]$/;

/** `x..y[..incr]` of integers (zero-padded when either end has a leading zero) or of letters; null past `max` terms. */
function sequence(amble: string, max: number): string[] | undefined | null {
  const dots = amble.indexOf("..");
  if (dots < 0) return undefined;
  const lhs = amble.slice(0, dots);
  const rest = amble.slice(dots + 2);
  if (lhs === "" || rest === "") return undefined;
  const m = /^([+-]?\d+|[A-Za-z])(?:\.\.([+-]?\d+))?$/.exec(rest);
  if (m === null) return undefined;
  const rhs = m[1]!;
  const letters = LETTER.test(lhs) && LETTER.test(rhs);
  if (!letters && !(INTEGER.test(lhs) && /\d/.test(rhs))) return undefined;
  let incr = m[2] === undefined ? 1 : Number(m[2]);
  if (!Number.isSafeInteger(incr)) return undefined;
  if (incr === 0) incr = 1;
  const start = letters ? lhs.charCodeAt(0) : Number(lhs.trim());
  const end = letters ? rhs.charCodeAt(0) : Number(rhs);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return undefined;
  if (Math.abs(end - start) / Math.abs(incr) >= max) return null;
  const step = start > end ? -Math.abs(incr) : Math.abs(incr);
  const width = letters ? 0 : padWidth(lhs.trim(), rhs);
  const out: string[] = [];
  for (let n = start; step > 0 ? n <= end : n >= end; n += step) {
    if (letters) {
      const ch = String.fromCharCode(n);
      // between Z and a lie [ \ ] ^ _ `: bash would quote-remove the backslash, not modelled
      if (!LETTER.test(ch)) throw new BraceUnknown(`the character range {${amble}}`);
      out.push(ch);
    } else out.push(width > 0 ? pad(n, width) : String(n));
  }
  return out;
}

/** bash pads every term to the longer end's width when either end starts with 0 (or -0). */
function padWidth(lhs: string, rhs: string): number {
  const padded = (s: string) => (/^-?0\d/.test(s) ? s.length : 0);
  const w = Math.max(padded(lhs), padded(rhs));
  return w === 0 ? 0 : Math.max(w, lhs.length, rhs.length);
}

function pad(n: number, width: number): string {
  const digits = String(Math.abs(n)).padStart(n < 0 ? width - 1 : width, "0");
  return n < 0 ? `-${digits}` : digits;
}
