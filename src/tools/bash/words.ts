import type { ShellNode } from "./shell-tree.js";

/** One shell word as far as it can be known before it runs. */
export interface Word {
  /** The source text, as written. */
  raw: string;
  /** The value after expansion and quote removal, when every part of it is known before it runs. */
  value: string | undefined;
  /** Unquoted glob characters (or brace expansion): the shell turns it into file names. */
  glob: boolean;
  /** Why the value is unknown (`$(...)`, `$X`): a construct inside the subset whose value only the run knows. */
  unknown?: string;
  /** The word is a process substitution: bash passes a pipe (/dev/fd/63), never a file. */
  pipe?: boolean;
  /** One of several file names a glob named: where it stands among them is the locale's sort order. */
  expanded?: boolean;
  /** The node, for the substitutions inside it. */
  node: ShellNode;
}

/** What a word needs from where it stands: the values of variables, and where to report constructs outside the subset. */
export interface WordEnv {
  /** A variable's value; undefined when only the run knows it. */
  lookup(name: string): string | undefined;
  /** A construct outside the modelled subset: the whole call asks, naming it. */
  outside(construct: string, text: string): void;
  /** `$'\u00e9'` makes the character's UTF-8 bytes: the shell's locale is known to be C.UTF-8 (locale.ts). */
  utf8Escapes?: boolean;
}

/** Unquoted, these characters make bash split a value into words or expand it as a glob. */
const SPLITS_OR_GLOBS = /[\s*?[\]{}~]/;

/**
 * Evaluates a word node exactly as bash would before running the command, for the subset the
 * classifier models: literal text, single and double quotes, escapes, ANSI-C strings, `~` and
 * `~/...`, `$NAME` and `${NAME}` of variables whose value is known. Everything else either makes
 * the value unknown (a command substitution, a variable only the run knows) or is outside the
 * subset and reported (arithmetic, parameter operators, translated strings, backquotes).
 */
export function wordOf(node: ShellNode, source: string, env: WordEnv, home: string): Word {
  const raw = source.slice(node.start, node.end);
  const out: Out = { value: "", glob: false };
  evaluate(node, source, env, out, false, home, true);
  const word: Word = { raw, value: out.value, glob: out.glob, node };
  if (out.unknown !== undefined) word.unknown = out.unknown;
  const only = node.children.length === 1 ? node.children[0]! : node;
  if (node.type === "process_substitution" || only.type === "process_substitution") word.pipe = true;
  return word;
}

interface Out {
  value: string | undefined;
  glob: boolean;
  unknown?: string;
}

function evaluate(
  node: ShellNode,
  source: string,
  env: WordEnv,
  out: Out,
  quoted: boolean,
  home: string,
  first: boolean,
): void {
  const text = source.slice(node.start, node.end);
  const add = (s: string | undefined, why?: string) => {
    if (s === undefined) {
      out.value = undefined;
      out.unknown ??= why ?? text;
    } else if (out.value !== undefined) out.value += s;
  };
  switch (node.type) {
    case "word":
    case "number":
    case "command_name":
      if (node.children.length > 0 && node.type !== "word") {
        node.children.forEach((c, i) => {
          evaluate(c, source, env, out, quoted, home, first && i === 0);
        });
        return;
      }
      if (hasUnquotedGlob(text)) out.glob = true;
      add(tilde(unescapeWord(text), first, home, env, text));
      return;
    case "raw_string":
      add(text.slice(1, -1));
      return;
    case "ansi_c_string": {
      const decoded = decodeAnsiC(text.slice(2, -1), env.utf8Escapes === true);
      if (decoded === undefined) {
        env.outside(
          "ANSI-C string with an escape bash decodes differently ($'\\c', a NUL, a non-ASCII byte, or a character above ASCII where the shell's locale is not known to be C.UTF-8)",
          text,
        );
        add(undefined, text);
      } else add(decoded);
      return;
    }
    case "string":
      for (const c of node.children) {
        if (!c.named) continue; // the quote marks
        if (c.type === "string_content") add(unescapeDouble(source.slice(c.start, c.end)));
        else evaluate(c, source, env, out, true, home, false);
      }
      return;
    case "translated_string":
      env.outside('locale-translated string $"..."', text);
      add(undefined, text);
      return;
    case "concatenation": {
      node.children.forEach((c, i) => {
        evaluate(c, source, env, out, quoted, home, first && i === 0);
      });
      // `{a,b}` reaches us as three words: the braces expand only when seen together
      const unquoted = node.children
        .map((c) => (c.type === "word" ? source.slice(c.start, c.end) : "\0"))
        .join("");
      if (!quoted && hasUnquotedGlob(unquoted)) out.glob = true;
      return;
    }
    case "simple_expansion":
    case "expansion": {
      const name = plainExpansion(node, source);
      if (name === undefined) {
        env.outside(expansionConstruct(node, source), text);
        add(undefined, text);
        return;
      }
      const value = env.lookup(name);
      if (value === undefined) {
        add(undefined, `$${name}`);
        return;
      }
      if (!quoted && (value === "" || SPLITS_OR_GLOBS.test(value))) {
        env.outside(`unquoted $${name}, whose value bash splits into words or expands as a glob`, text);
        add(undefined, text);
        return;
      }
      add(value);
      return;
    }
    case "command_substitution":
      // backquotes are refused before the parse (lexical.ts)
      add(undefined, "$(...)");
      return;
    case "process_substitution":
      add("/dev/fd/63");
      return;
    case "arithmetic_expansion":
      env.outside("arithmetic expansion $((...))", text);
      add(undefined, text);
      return;
    case "brace_expression":
      out.glob = true;
      add(text);
      return;
    default:
      env.outside(`${node.type.replace(/_/g, " ")} inside a word`, text);
      add(undefined, text);
  }
}

/** `$NAME`, `${NAME}`: the name, when the expansion is plain (no operator, no subscript, no indirection). */
function plainExpansion(node: ShellNode, source: string): string | undefined {
  const named = node.children.filter((c) => c.named);
  const tokens = node.children.filter((c) => !c.named).map((c) => c.type);
  if (named.length !== 1 || named[0]!.type !== "variable_name") return undefined;
  const expected = node.type === "simple_expansion" ? ["$"] : ["${", "}"];
  if (tokens.join(" ") !== expected.join(" ")) return undefined;
  const name = source.slice(named[0]!.start, named[0]!.end);
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : undefined;
}

/** The name a person knows a parameter expansion by. */
function expansionConstruct(node: ShellNode, source: string): string {
  const text = source.slice(node.start, node.end);
  if (/@[PQEAaKkUuL]\}$/.test(text)) return `parameter transformation @${text.at(-2)}`;
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the construct's own spelling
  if (text.startsWith("${!")) return "indirect expansion ${!...}";
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the construct's own spelling
  if (text.startsWith("${#")) return "length expansion ${#...}";
  if (text.includes("[")) return "array subscript in an expansion";
  if (node.type === "simple_expansion") return `special parameter ${text}`;
  const named = node.children.filter((c) => c.named);
  if (named.length === 0) return `special parameter ${text}`;
  return `parameter expansion with an operator (${text.length > 40 ? `${text.slice(0, 40)}…` : text})`;
}

/** `~` and `~/...` at a word's start are $HOME; `~user` is outside the subset. */
function tilde(value: string, first: boolean, home: string, env: WordEnv, text: string): string | undefined {
  if (!first) return value;
  // bash also expands `~` after the `=` and each `:` of an argument that looks like an assignment
  // (`cat x=~/.ssh/id_rsa` reads x=$HOME/.ssh/id_rsa)
  const assignment = /^[A-Za-z_][A-Za-z0-9_]*=/.exec(text);
  if (assignment && !/['"\\$]/.test(text)) {
    const name = assignment[0];
    const parts = value.slice(name.length).split(":");
    const out = parts.map((p) => leadingTilde(p, home));
    if (out.some((p) => p === undefined)) {
      env.outside("~user expansion", text);
      return undefined;
    }
    return name + out.join(":");
  }
  if (!text.startsWith("~")) return value;
  const done = leadingTilde(value, home);
  if (done === undefined) env.outside("~user expansion", text);
  return done;
}

/** A leading `~` or `~/` is $HOME; undefined for `~user` (and `~+`, `~-`), which are not modelled. */
export function leadingTilde(value: string, home: string): string | undefined {
  if (!value.startsWith("~")) return value;
  if (value === "~" || value.startsWith("~/")) return home + value.slice(1);
  return undefined;
}

/**
 * Whether bash may brace-expand some part of the text: a `{` (not `${`), then a `,` or `..` and a
 * `}` with no brace between. An over-approximation (escapes are not read) in one pass.
 */
export function hasBraceExpression(text: string): boolean {
  let open = false;
  let separator = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "{") {
      open = text[i - 1] !== "$";
      separator = false;
    } else if (c === "}") {
      if (open && separator) return true;
      open = false;
    } else if (c === "," || (c === "." && text[i + 1] === ".")) separator = true;
  }
  return false;
}

/** `*`, `?`, `[...]` or `{a,b}` outside quotes and escapes. One pass: a line is untrusted and may be 128 KiB of `[`. */
export function hasUnquotedGlob(text: string): boolean {
  const lastClose = text.lastIndexOf("]");
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "*" || c === "?") return true;
    if (c === "[" && lastClose >= i + 2) return true;
  }
  return hasBraceExpression(text);
}

function unescapeWord(text: string): string {
  return text.replace(/\\(.)/gs, "$1");
}

function unescapeDouble(text: string): string {
  return text.replace(/\\([$`"\\])/g, "$1");
}

const SIMPLE_ESCAPES: Record<string, string> = {
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

/**
 * Decodes `$'...'` as bash does; undefined where the result would not be plain text bash and we
 * agree on: `\c` (control characters), a NUL (bash cuts the string there), a byte escape above
 * 0x7f (bash makes a byte, not a character), or a `\u`/`\U` above ASCII unless `utf8` (bash
 * encodes it for the locale: under C it writes `\u00E9` out as text).
 */
export function decodeAnsiC(body: string, utf8 = false): string | undefined {
  let bad = false;
  const decoded = body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.?|.)/gs,
    (_, esc: string) => {
      let code: number | undefined;
      if (esc[0] === "x" && esc.length > 1) code = Number.parseInt(esc.slice(1), 16);
      else if ((esc[0] === "u" || esc[0] === "U") && esc.length > 1) {
        const cp = Number.parseInt(esc.slice(1), 16);
        if (cp === 0 || cp > 0x10ffff || (cp > 0x7f && !utf8) || (cp >= 0xd800 && cp <= 0xdfff)) bad = true;
        return bad ? "" : String.fromCodePoint(cp);
      } else if (/^[0-7]+$/.test(esc)) code = Number.parseInt(esc, 8);
      else if (esc[0] === "c") {
        bad = true;
        return "";
      }
      if (code !== undefined) {
        if (code === 0 || code > 0x7f) bad = true;
        return String.fromCharCode(code);
      }
      return SIMPLE_ESCAPES[esc] ?? `\\${esc}`;
    },
  );
  return bad ? undefined : decoded;
}
