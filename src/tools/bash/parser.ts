import { createRequire } from "node:module";
import type { Language, Parser, TreeCursor } from "web-tree-sitter";
import { importModule } from "../../util/import-module.js";

/** A syntax node copied out of the wasm tree: plain data, so walking it costs no calls into wasm. */
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

let loading: Promise<Parser> | undefined;

/**
 * The bash parser, loaded on first use only: web-tree-sitter's runtime and the tree-sitter-bash
 * grammar are wasm files shipped in their npm packages (no native build, nothing downloaded), and
 * a session that never runs a command never pays for them.
 */
export function bashParser(): Promise<Parser> {
  loading ??= (async () => {
    // the CLI asks for wasm on Liftoff only (see cli/main.ts); a library user's process is left as
    // it is. "set" tells the CLI that V8's flags changed, so it keeps no code cache from this run.
    const request = Symbol.for("toolplane.wasmLiftoffOnly");
    if ((globalThis as Record<symbol, unknown>)[request] === true) {
      (await importModule<typeof import("node:v8")>("node:v8")).setFlagsFromString("--liftoff-only");
      (globalThis as Record<symbol, unknown>)[request] = "set";
    }
    const { Parser: P, Language: L } =
      await importModule<typeof import("web-tree-sitter")>("web-tree-sitter");
    await P.init();
    const require = createRequire(import.meta.url);
    const language: Language = await L.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
    const parser = new P();
    parser.setLanguage(language);
    return parser;
  })();
  // a failed load may be tried again
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** Parses a command line into plain nodes; the wasm tree is freed before returning. */
export async function parseShell(source: string): Promise<ParsedShell> {
  const parser = await bashParser();
  return parseWith(parser, source);
}

export function parseWith(parser: Parser, source: string): ParsedShell {
  const tree = parser.parse(source);
  if (!tree) throw new Error("the shell parser returned no tree");
  try {
    const cursor = tree.walk();
    try {
      const root = copy(cursor);
      return { source, root, hasError: tree.rootNode.hasError };
    } finally {
      cursor.delete();
    }
  } finally {
    tree.delete();
  }
}

/** Copies the subtree under the cursor, iteratively (a deeply nested command cannot overflow the stack). */
function copy(cursor: TreeCursor): ShellNode {
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
  for (;;) {
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
