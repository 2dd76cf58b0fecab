// The tree both bash parser runtimes are copied into, and the copy (parser.ts chooses the runtime).

/** A syntax node copied out of the parser's tree: plain data, so walking it costs no calls into the parser. */
export interface ShellNode {
  type: string;
  /** The field this node fills in its parent (`name`, `argument`, `redirect`, ...). */
  field: string | undefined;
  named: boolean;
  /** Offsets into the source string (UTF-16 code units). */
  start: number;
  end: number;
  /** An ERROR node, or one the parser invented to recover (MISSING). */
  broken: boolean;
  children: ShellNode[];
}

export interface ParsedShell {
  source: string;
  root: ShellNode;
  /** The parser had to recover somewhere: the classification cannot be trusted. */
  hasError: boolean;
}

/**
 * tree-sitter-bash, one grammar (the same package's tables) behind two runtimes: the native
 * binding (`tree-sitter`, an optional dependency with prebuilt N-API binaries) and the wasm one
 * (`web-tree-sitter`). They make the same tree (test/tools/bash/parser-engines.test.ts).
 */
export type ParserEngine = "native" | "wasm";

export interface ShellParser {
  readonly engine: ParserEngine;
  /**
   * Parses a command line into plain nodes. `stop` is asked now and then during the parse (a
   * 128 KiB line takes tree-sitter most of a second on a loaded machine); once it says true the
   * parse ends with ParseStopped.
   */
  parse(source: string, stop?: () => boolean): ParsedShell;
}

/** Thrown by ShellParser.parse when its `stop` asked it to end. */
export class ParseStopped extends Error {
  constructor() {
    super("the shell parse was stopped");
    this.name = "ParseStopped";
  }
}

/** What both runtimes' tree cursors offer, as far as copying a tree needs. */
export interface ShellCursor {
  readonly nodeType: string;
  readonly currentFieldName: string | null | undefined;
  readonly nodeIsNamed: boolean;
  readonly nodeIsMissing: boolean;
  readonly startIndex: number;
  readonly endIndex: number;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
}

/**
 * Copies the subtree under the cursor, iteratively (a deeply nested command cannot overflow the
 * stack). A 128 KiB line can make 130,000 nodes, as long to copy as to parse: `stop` is asked
 * every 1,024 nodes, and a true ends the copy with ParseStopped.
 */
export function copyTree(cursor: ShellCursor, stop?: () => boolean): ShellNode {
  const make = (): ShellNode => ({
    type: cursor.nodeType,
    field: cursor.currentFieldName ?? undefined,
    named: cursor.nodeIsNamed,
    start: cursor.startIndex,
    end: cursor.endIndex,
    broken: cursor.nodeType === "ERROR" || cursor.nodeIsMissing,
    children: [],
  });
  const root = make();
  const stack: ShellNode[] = [root];
  if (!cursor.gotoFirstChild()) return root;
  for (let copied = 1; ; copied++) {
    if (stop !== undefined && copied % 1024 === 0 && stop()) throw new ParseStopped();
    const node = make();
    stack[stack.length - 1]!.children.push(node);
    if (cursor.gotoFirstChild()) {
      stack.push(node);
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent() || stack.length === 1) return root;
      stack.pop();
    }
  }
}

/** Outside ASCII: bash's names never hold such a character. */
const NON_ASCII = /[^\x00-\x7f]/;
/** A redirection's descriptor, as bash reads one: decimal digits (`2>`, `10<`). */
const DESCRIPTOR = /^[0-9]+$/;

/**
 * A runtime's copied tree as the classifier gets it: `recovered` is the parser's own error flag.
 * Four readings of the grammar are not bash's, and a tree holding one is marked broken, so the
 * classifier asks:
 * - Bash's names are ASCII (`[A-Za-z_][A-Za-z0-9_]*`: `é=1` runs a command named `é=1`), while
 *   the grammar's scanner asks the C library whether a character is a letter, and the wasm
 *   runtime's libc says yes to `é` and `ß`: it reads `é=1` as an assignment.
 * - A redirection's descriptor is digits to bash, while the grammar also takes a leading `-`
 *   (and the wasm runtime `é` among the digits): `-9>a` is a command named `-9` writing to `a`
 *   to bash, and a bare redirection with no command to the grammar, so the command went unseen.
 * - An escaped blank (`\ `, `\<tab>`) where a word starts is a character of that word to bash,
 *   while the grammar skips it as blank space: `\ ls` runs a program named ` ls`, not `ls`, and
 *   `echo > \ x` writes ` x`, not `x`: an escaped blank that no token holds was skipped.
 * - A word `{NAME}` right before a redirection (`echo hi {PATH}>/dev/null`) is to bash a
 *   redirection that opens a new descriptor and sets the variable NAME to its number: PATH
 *   becomes `11`, and the next command of the line runs `./11/ls` from the workspace. The grammar
 *   reads an argument `{PATH}` and a redirection of the command's output.
 */
export function parsedShell(source: string, root: ShellNode, recovered: boolean): ParsedShell {
  return { source, root, hasError: recovered || notBashReading(source, root) };
}

function notBashReading(source: string, root: ShellNode): boolean {
  const foreign = NON_ASCII.test(source);
  const blank = ESCAPED_BLANK.test(source);
  const named = namedDescriptors(source);
  // nothing to look for in an ASCII line without a redirection or an escaped blank, the common case
  if (!foreign && !blank && !source.includes(">") && !source.includes("<")) return false;
  // the characters some token holds (an escaped blank outside all of them was skipped as space),
  // and those of quoted text and comments (where `{NAME}>` is text)
  const held = blank ? new Uint8Array(source.length) : undefined;
  const text = named.length > 0 ? new Uint8Array(source.length) : undefined;
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.type === "file_descriptor" && !DESCRIPTOR.test(source.slice(node.start, node.end))) return true;
    if (foreign && node.type === "variable_name" && NON_ASCII.test(source.slice(node.start, node.end)))
      return true;
    const literal = TEXT_NODES.has(node.type);
    if (held && (literal || node.children.length === 0)) held.fill(1, node.start, node.end);
    if (text && literal) text.fill(1, node.start, node.end);
    // one at a time: a spread of a command's 200,000 arguments would pass the engine's argument limit
    for (const child of node.children) stack.push(child);
  }
  if (held) for (const m of source.matchAll(ESCAPED_BLANKS)) if (held[m.index] === 0) return true;
  if (text) for (const at of named) if (text[at] === 0) return true;
  return false;
}

/**
 * Where bash may read a named descriptor: `{NAME}` starting a word, right before `<` or `>`, or
 * `{NAME[` with a `}<` or `}>` anywhere after it (a subscript, read generously: a false match only
 * asks). Only where a word starts: `a{x}>f` is a word and a redirection to bash too. Two linear
 * passes, by hand: a regex that matched the subscript up to its `]` scanned to the end of the line
 * from every `{a[`, which the model's command can repeat (128 KiB of them took seconds).
 */
function namedDescriptors(source: string): number[] {
  if (!source.includes("{")) return [];
  let lastCloser = -1;
  for (const m of source.matchAll(/\}[<>]/g)) lastCloser = m.index;
  if (lastCloser < 0) return [];
  const out: number[] = [];
  for (const m of source.matchAll(NAMED_START))
    if (m[0].endsWith("}") || lastCloser > m.index) out.push(m.index);
  return out;
}
/** `{NAME}` before `<`/`>` (the lookahead), or `{NAME[`, where a word starts. */
const NAMED_START = /(?<=^|[\s;&|()!])\{[A-Za-z_][A-Za-z0-9_]*(?:\}(?=[<>])|\[)/g;
/** A backslash before a space or a tab (`\v` and `\f` are control characters: lexical.ts asks). */
const ESCAPED_BLANK = /\\[ \t]/;
const ESCAPED_BLANKS = /\\[ \t]/g;
/** Nodes whose whole text is literal text of theirs, with or without tokens inside. */
const TEXT_NODES = new Set([
  "string",
  "raw_string",
  "ansi_c_string",
  "translated_string",
  "heredoc_body",
  "comment",
]);
