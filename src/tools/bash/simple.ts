import type { ParsedShell, ShellNode } from "./parser.js";

/**
 * The simplest command lines: a command name of letters, digits and `_ . / -` (not starting
 * with a digit or `-`, which the grammar reads otherwise), then arguments
 * that may also hold `: + ,`, split by spaces or tabs (`ls -la src`, `npm test`, `git status`).
 * No quote, `$`, glob, `=`, `~`, `#`, operator or redirection can occur, so bash reads every such
 * line as one command of literal words, and so does tree-sitter-bash. (The grammar reads a name
 * with `+`, `:`, `%` or `@` in it as a broken assignment, so the name keeps to the narrower set.)
 */
const SIMPLE_LINE = /^[ \t]*[A-Za-z_./][A-Za-z0-9_./-]*(?:[ \t]+[A-Za-z0-9_./:+,-]+)*[ \t]*$/;
const WORD = /[A-Za-z0-9_./:+,-]+/g;

/**
 * Words the grammar reads as syntax rather than a command name (reserved words, and the
 * declaration and unset commands it gives nodes of their own): a line holding one anywhere is left
 * to the parser, which costs nothing in correctness (it is the parser's answer then).
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

/** The grammar makes a `number` node of `12` or `-1` (and of forms like `0x1f`): left to it. */
const NUMBER_LIKE = /^-?[0-9]/;

/**
 * The tree tree-sitter-bash makes for a simple line (above), built without loading the parser;
 * undefined for any other line. Loading the parser is ~100 ms of a process's first bash call
 * (web-tree-sitter, and V8 compiling the grammar's lexer on its first parse), and most first
 * commands are this simple. test/tools/bash/simple.test.ts checks on generated lines that the tree
 * is the parser's, node for node and offset for offset, whenever this returns one.
 */
export function simpleShell(source: string): ParsedShell | undefined {
  if (!SIMPLE_LINE.test(source)) return undefined;
  const words: ShellNode[] = [];
  for (const m of source.matchAll(WORD)) {
    if (SYNTAX_WORDS.has(m[0]) || NUMBER_LIKE.test(m[0])) return undefined;
    words.push(node("word", "argument", m.index, m.index + m[0].length, []));
  }
  const first = words[0]!;
  const last = words[words.length - 1]!;
  const name = node("command_name", "name", first.start, first.end, [{ ...first, field: undefined }]);
  const command = node("command", undefined, first.start, last.end, [name, ...words.slice(1)]);
  return { source, root: node("program", undefined, first.start, source.length, [command]), hasError: false };
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
