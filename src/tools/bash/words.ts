import type { ShellNode } from "./parser.js";

/** One shell word as far as it can be known before it runs. */
export interface Word {
  /** The source text, as written. */
  raw: string;
  /** The value after quote removal, when no part of it is known only at run time. */
  value: string | undefined;
  /** Unquoted glob characters (or brace expansion): the shell turns it into file names. */
  glob: boolean;
  /** The node, for the substitutions inside it. */
  node: ShellNode;
}

const DYNAMIC = new Set(["simple_expansion", "expansion", "command_substitution", "arithmetic_expansion"]);

/** Evaluates a word node statically: quotes removed, escapes resolved, expansions left unknown. */
export function wordOf(node: ShellNode, source: string): Word {
  const raw = source.slice(node.start, node.end);
  const parts = { value: "" as string | undefined, glob: false };
  evaluate(node, source, parts);
  return { raw, value: parts.value, glob: parts.glob, node };
}

function evaluate(node: ShellNode, source: string, out: { value: string | undefined; glob: boolean }): void {
  const text = source.slice(node.start, node.end);
  const add = (s: string | undefined) => {
    out.value = out.value === undefined || s === undefined ? undefined : out.value + s;
  };
  switch (node.type) {
    case "word":
    case "number":
    case "command_name":
      if (node.children.length > 0 && node.type !== "word") {
        for (const c of node.children) evaluate(c, source, out);
        return;
      }
      if (hasUnquotedGlob(text)) out.glob = true;
      add(unescapeWord(text));
      return;
    case "raw_string":
      add(text.slice(1, -1));
      return;
    case "ansi_c_string":
      add(decodeAnsiC(text.slice(2, -1)));
      return;
    case "string":
    case "translated_string": {
      const inner = node.type === "translated_string" ? node.children.find((c) => c.type === "string") : node;
      if (!inner) {
        add(undefined);
        return;
      }
      for (const c of inner.children) {
        if (!c.named) continue; // the quote marks
        if (c.type === "string_content") add(unescapeDouble(source.slice(c.start, c.end)));
        else add(undefined);
      }
      return;
    }
    case "concatenation":
      for (const c of node.children) evaluate(c, source, out);
      return;
    case "process_substitution":
      // the shell passes a /dev/fd/N path: a file, but never one in the workspace
      add("/dev/fd/63");
      return;
    case "brace_expression":
    case "extglob_pattern":
      out.glob = true;
      add(text);
      return;
    default:
      if (DYNAMIC.has(node.type)) {
        add(undefined);
        return;
      }
      // an unexpected node inside a word: its value cannot be known
      add(undefined);
  }
}

/** `*`, `?`, `[...]` or `{a,b}` outside quotes and escapes. */
function hasUnquotedGlob(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "*" || c === "?") return true;
    if (c === "[" && text.indexOf("]", i + 2) > i) return true;
    if (c === "{" && /^\{[^{}]*(,|\.\.)[^{}]*\}/.test(text.slice(i))) return true;
  }
  return false;
}

function unescapeWord(text: string): string {
  return text.replace(/\\\n/g, "").replace(/\\(.)/gs, "$1");
}

function unescapeDouble(text: string): string {
  return text.replace(/\\\n/g, "").replace(/\\([$`"\\])/g, "$1");
}

function decodeAnsiC(body: string): string {
  const simple: Record<string, string> = {
    n: "\n",
    t: "\t",
    r: "\r",
    a: "\x07",
    b: "\b",
    e: "\x1b",
    E: "\x1b",
    f: "\f",
    v: "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
  };
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/gs, (_, esc: string) => {
    if (esc[0] === "x" && esc.length > 1) return String.fromCharCode(Number.parseInt(esc.slice(1), 16));
    if (/^[0-7]+$/.test(esc)) return String.fromCharCode(Number.parseInt(esc, 8));
    return simple[esc] ?? `\\${esc}`;
  });
}

/** True for nodes that hold a word (an argument, a name, a redirect destination). */
export function isWordNode(node: ShellNode): boolean {
  return (
    node.named && node.type !== "comment" && node.type !== "file_redirect" && node.type !== "heredoc_redirect"
  );
}
