import { type ParsedShell, parsedShell, type ShellNode } from "./shell-tree.js";

// Command lines simple enough to build tree-sitter-bash's tree for them without loading it:
// commands of plain words joined by `&&`, `||`, `|` and `;`, each with plain redirections
// (`> f`, `>> f`, `< f`, `2> f`, `2>&1`, `>&2`). Loading the parser is ~100 ms of a process's first
// bash call (web-tree-sitter, and V8 compiling the grammar's lexer on its first parse), and most
// first commands are of this kind (`npm test 2>&1 | tail -20`, `cd app && npm run build`).
// Hand-written because no library builds *this grammar's* tree; test/tools/bash/simple.test.ts
// checks on generated lines that the tree is the parser's, node for node and offset for offset,
// whenever one is built here. An argument may also be quoted, `'...'` (a raw_string) or `"..."`
// of text and `$NAME` / `${NAME}` (no backquote or backslash), or be a lone `$NAME` / `${NAME}`,
// standing alone between blanks (`git commit -m "fix the parser"`, `grep -rn 'TODO' src`,
// `echo "$HOME" > /dev/null`). Anything else (another expansion, a glob, `=`, `~`, `#`, `&`, a
// newline, a reserved word, a quote or a variable run into a word) is left to the parser: that
// costs time, never correctness.

/** A command name: letters, digits and `_ . / -`, not starting with a digit or `-` (the grammar reads those otherwise). */
const NAME = /^[A-Za-z_./][A-Za-z0-9_./-]*$/;
/** An argument may also hold `: + ,` (a name with them reads as a broken assignment). */
const WORD_CHARS = /[A-Za-z0-9_./:+,-]/;
/** The grammar makes a `number` node of `12` and `-1`; of other forms like `0x1f` too, so those are left to it. */
const NUMBER = /^-?[0-9]+$/;
const NUMBER_LIKE = /^-?[0-9]/;

/**
 * Words the grammar reads as syntax rather than a command name (reserved words, and the
 * declaration and unset commands it gives nodes of their own): a line holding one anywhere is left
 * to the parser.
 */
const SYNTAX_WORDS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "case",
  "esac",
  "for",
  "select",
  "while",
  "until",
  "do",
  "done",
  "in",
  "function",
  "time",
  "coproc",
  "declare",
  "typeset",
  "export",
  "readonly",
  "local",
  "unset",
  "unsetenv",
]);

type Op = "&&" | "||" | "|" | ";";
/** A piece of a double-quoted string: literal text, or `$NAME` / `${NAME}`. */
type Piece = { kind: "text" | "var" | "braced"; start: number; end: number };
type Token =
  | {
      kind: "word";
      text: string;
      start: number;
      end: number;
      /** `'` raw string, `"` string (with its pieces), `$` a lone `$NAME` or `${NAME}`. */
      quote?: "'" | '"' | "$";
      pieces?: Piece[];
    }
  | { kind: "op"; op: Op; start: number; end: number }
  | { kind: "redirect"; fd?: number; op: ">" | ">>" | "<" | ">&"; start: number; end: number };

/** Splits a line into words, operators and redirection operators; undefined at anything else. */
function tokens(source: string): Token[] | undefined {
  const out: Token[] = [];
  let i = 0;
  const n = source.length;
  let blankBefore = true;
  while (i < n) {
    const c = source[i]!;
    if (c === " " || c === "\t") {
      i++;
      blankBefore = true;
      continue;
    }
    const two = source.slice(i, i + 2);
    if (two === "&&" || two === "||") {
      out.push({ kind: "op", op: two, start: i, end: i + 2 });
      i += 2;
    } else if (c === "|" || c === ";") {
      // `|&`, `||` (above) and `;;`, `;&` are other operators
      if (source[i + 1] === "&" || source[i + 1] === ";") return undefined;
      out.push({ kind: "op", op: c, start: i, end: i + 1 });
      i++;
    } else if (c === ">" || c === "<" || (/[0-9]/.test(c) && source[i + 1] === ">")) {
      // a redirection starts a word of its own (`a>f` and `x2>f` read otherwise)
      if (!blankBefore) return undefined;
      const start = i;
      // a descriptor before `<` (`0<f`) reads otherwise in the grammar: left to it (the digit then
      // runs into `<` as a word, which the word branch refuses)
      let fd: number | undefined;
      if (c !== ">" && c !== "<") {
        fd = Number(c);
        i++;
      }
      const rest = source.slice(i, i + 3);
      let op: ">" | ">>" | "<" | ">&";
      if (rest.startsWith(">>")) op = ">>";
      else if (rest.startsWith(">&")) op = ">&";
      else if (rest.startsWith(">")) op = ">";
      else op = "<";
      i += op.length;
      // `>>&`, `>|`, `<<`, `<&`, `<>`, `&>` and the like are left to the parser
      if (/[<>&|]/.test(source[i] ?? "")) return undefined;
      out.push({ kind: "redirect", ...(fd === undefined ? {} : { fd }), op, start, end: i });
    } else if (c === "'" || c === '"' || c === "$") {
      // a quoted argument or a lone variable standing alone: after a blank, on one line, followed
      // by a blank, an operator or the end
      if (!blankBefore) return undefined;
      const start = i;
      let pieces: Piece[] | undefined;
      if (c === "$") {
        const v = variableAt(source, i);
        if (v === undefined) return undefined;
        pieces = [v];
        i = v.end;
      } else {
        const close = source.indexOf(c, i + 1);
        if (close < 0) return undefined;
        if (/[\r\n]/.test(source.slice(i + 1, close))) return undefined;
        if (c === '"') {
          pieces = stringPieces(source, i + 1, close);
          if (pieces === undefined) return undefined;
        }
        i = close + 1;
      }
      if (i < n && !/[ \t;|&<>]/.test(source[i]!)) return undefined;
      out.push({
        kind: "word",
        text: source.slice(start, i),
        start,
        end: i,
        quote: c,
        ...(pieces ? { pieces } : {}),
      });
    } else if (WORD_CHARS.test(c)) {
      if (!blankBefore && out.at(-1)?.kind === "word") return undefined;
      const start = i;
      while (i < n && WORD_CHARS.test(source[i]!)) i++;
      // a word running into a character outside the set is not a plain word
      if (i < n && !/[ \t;|&<>]/.test(source[i]!)) return undefined;
      out.push({ kind: "word", text: source.slice(start, i), start, end: i });
    } else return undefined;
    blankBefore = false;
  }
  return out;
}

/** The tree tree-sitter-bash makes for a simple line (see the top of this file); undefined for any other line. */
export function simpleShell(source: string): ParsedShell | undefined {
  const toks = tokens(source);
  if (toks === undefined || toks.length === 0) return undefined;
  let at = 0;
  const peek = () => toks[at];

  /** A command: a name and its arguments. */
  const command = (): ShellNode | undefined => {
    const first = peek();
    if (first?.kind !== "word" || !NAME.test(first.text) || SYNTAX_WORDS.has(first.text)) return undefined;
    at++;
    const word = leaf("word", undefined, first.start, first.end);
    const children = [node("command_name", "name", first.start, first.end, [word])];
    for (let t = peek(); t?.kind === "word"; t = peek()) {
      const a = argument(t, "argument");
      if (!a) return undefined;
      children.push(a);
      at++;
    }
    return node("command", undefined, first.start, children.at(-1)!.end, children);
  };

  /** Redirections after a command; undefined when one is not plain. */
  const redirects = (): ShellNode[] | undefined => {
    const out: ShellNode[] = [];
    for (let t = peek(); t?.kind === "redirect"; t = peek()) {
      at++;
      const dest = peek();
      if (dest?.kind !== "word") return undefined;
      at++;
      let target: ShellNode | undefined;
      if (t.op === ">&") {
        // `>&1`: a descriptor number, written against the operator
        if (!NUMBER.test(dest.text) || dest.text.startsWith("-") || dest.start !== t.end) return undefined;
        target = leaf("number", "destination", dest.start, dest.end);
      } else {
        target = argument(dest, "destination");
        // a file named like a number (`> 1`) is left to the parser
        if (target?.type !== "word") return undefined;
      }
      const parts: ShellNode[] = [];
      if (t.fd !== undefined) parts.push(leaf("file_descriptor", "descriptor", t.start, t.start + 1));
      parts.push(anonymous(t.op, t.fd === undefined ? t.start : t.start + 1, t.end));
      parts.push(target);
      out.push(node("file_redirect", "redirect", t.start, dest.end, parts));
      // the grammar reads a word after a destination as a second destination: left to it
      if (peek()?.kind === "word") return undefined;
    }
    return out;
  };

  const statements: ShellNode[] = [];
  for (;;) {
    // the grammar's binding: `|` binds tighter than `&&`/`||`, which fold to the left, and a
    // redirection takes the whole statement before it (`a && b > f` redirects the list)
    let left: ShellNode | undefined;
    let leftOp: ShellNode | undefined;
    let pipe: ShellNode[] = [];
    const closeList = () => {
      const p = pipe.length === 1 ? pipe[0]! : span("pipeline", pipe);
      left = left === undefined ? p : span("list", [left, leftOp!, p]);
      pipe = [];
      leftOp = undefined;
    };
    for (;;) {
      const cmd = command();
      if (!cmd) return undefined;
      const reds = redirects();
      if (!reds) return undefined;
      const next = peek();
      if (next !== undefined && next.kind !== "op") return undefined;
      pipe.push(cmd);
      if (reds.length > 0) {
        closeList();
        left = redirected(left!, reds);
        // what follows a redirection takes the whole statement so far as its left side
        if (next?.op === "|") {
          pipe = [left];
          left = undefined;
        }
      }
      if (next === undefined || next.op === ";") {
        if (pipe.length > 0) closeList();
        break;
      }
      at++;
      if (next.op === "|") pipe.push(anonymous("|", next.start, next.end));
      else {
        // the grammar nests a pipeline of three or more commands before `&&`/`||` oddly
        // (`a | b | c && d` reads as `a | (b | c && d)`): left to it
        if (pipe.length > 3) return undefined;
        if (pipe.length > 0) closeList();
        leftOp = anonymous(next.op, next.start, next.end);
      }
    }
    statements.push(left!);
    const end = peek();
    if (end === undefined) break;
    at++;
    statements.push(anonymous(";", end.start, end.end));
    if (peek() === undefined) break;
  }
  const first = statements[0]!;
  // through the same check as the parsers' trees, so a reading bash does not share is caught
  // here too (the path refuses those constructs today; the check does not rely on it)
  return parsedShell(source, node("program", undefined, first.start, source.length, statements), false);
}

/** `$NAME` or `${NAME}` at `i`: its piece, or undefined for any other `$` form (left to the parser). */
function variableAt(source: string, i: number): Piece | undefined {
  const braced = source[i + 1] === "{";
  const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i + (braced ? 2 : 1)));
  if (!m) return undefined;
  let end = i + (braced ? 2 : 1) + m[0].length;
  if (braced) {
    if (source[end] !== "}") return undefined;
    end++;
  }
  return { kind: braced ? "braced" : "var", start: i, end };
}

/**
 * A double-quoted string's content as text and variables; undefined for what the simple path
 * leaves to the parser: a backquote, a backslash, another `$` form, and a text piece of blanks
 * alone (the grammar folds those into the piece after it, or into the closing quote).
 */
function stringPieces(source: string, from: number, to: number): Piece[] | undefined {
  const pieces: Piece[] = [];
  let i = from;
  while (i < to) {
    const c = source[i]!;
    if (c === "`" || c === "\\") return undefined;
    if (c === "$") {
      const v = variableAt(source, i);
      if (v === undefined || v.end > to) return undefined;
      pieces.push(v);
      i = v.end;
      continue;
    }
    const start = i;
    while (i < to && source[i] !== "$" && source[i] !== "`" && source[i] !== "\\") i++;
    if (/^[ \t]+$/.test(source.slice(start, i))) return undefined;
    pieces.push({ kind: "text", start, end: i });
  }
  return pieces;
}

/** The node of a `$NAME` or `${NAME}` piece. */
function variable(p: Piece, field: string | undefined): ShellNode {
  if (p.kind === "var")
    return node("simple_expansion", field, p.start, p.end, [
      anonymous("$", p.start, p.start + 1),
      leaf("variable_name", undefined, p.start + 1, p.end),
    ]);
  return node("expansion", field, p.start, p.end, [
    anonymous("${", p.start, p.start + 2),
    leaf("variable_name", undefined, p.start + 2, p.end - 1),
    anonymous("}", p.end - 1, p.end),
  ]);
}

/**
 * An argument or a destination: a word, a number node for `12` and `-1`, a quoted string or a
 * lone variable; undefined for forms left to the parser.
 */
function argument(
  t: { text: string; start: number; end: number; quote?: "'" | '"' | "$"; pieces?: Piece[] },
  field: string,
): ShellNode | undefined {
  if (t.quote === "'") return leaf("raw_string", field, t.start, t.end);
  if (t.quote === "$") return variable(t.pieces![0]!, field);
  if (t.quote === '"') {
    const parts = [anonymous('"', t.start, t.start + 1)];
    for (const p of t.pieces ?? [])
      parts.push(
        p.kind === "text" ? leaf("string_content", undefined, p.start, p.end) : variable(p, undefined),
      );
    parts.push(anonymous('"', t.end - 1, t.end));
    return node("string", field, t.start, t.end, parts);
  }
  if (SYNTAX_WORDS.has(t.text) || t.text === "-") return undefined;
  if (NUMBER.test(t.text)) return leaf("number", field, t.start, t.end);
  if (NUMBER_LIKE.test(t.text)) return undefined;
  return leaf("word", field, t.start, t.end);
}

function redirected(body: ShellNode, reds: ShellNode[]): ShellNode {
  return node("redirected_statement", undefined, body.start, reds.at(-1)!.end, [
    { ...body, field: "body" },
    ...reds,
  ]);
}

function span(type: string, children: ShellNode[]): ShellNode {
  return node(type, undefined, children[0]!.start, children.at(-1)!.end, children);
}

function leaf(type: string, field: string | undefined, start: number, end: number): ShellNode {
  return node(type, field, start, end, []);
}

function anonymous(type: string, start: number, end: number): ShellNode {
  return { type, field: undefined, named: false, start, end, broken: false, children: [] };
}

function node(
  type: string,
  field: string | undefined,
  start: number,
  end: number,
  children: ShellNode[],
): ShellNode {
  return { type, field, named: true, start, end, broken: false, children };
}
