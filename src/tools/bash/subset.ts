// The walker is one class on purpose: each method is one construct of the subset, and they call
// each other as the grammar nests. Over 400 lines for that reason (issue 22 asks for the subset
// parser in one place).
import path from "node:path";
import { dedupe, type ShellAnalysis } from "./analysis.js";
import type { CheckBudget } from "./budget.js";
import { builtin } from "./builtins.js";
import { classifyCommand, isModelled } from "./commands/index.js";
import { literal, type Site } from "./commands/site.js";
import { unwrap } from "./commands/wrappers.js";
import { posixDifferences } from "./dialect.js";
import { lexicalConstructs } from "./lexical.js";
import type { ShellLocale } from "./locale.js";
import { PathRecorder } from "./paths.js";
import {
  copy,
  type LineState,
  merge,
  NO_LINKS,
  type Outcome,
  resolveFrom,
  type Scope,
  unknownCwd,
} from "./scope.js";
import { logicalCd, plainCd, procPath } from "./shell-paths.js";
import type { ParsedShell, ShellNode } from "./shell-tree.js";
import { assignmentRisk } from "./variables.js";
import { leadingTilde, type Word, wordOf } from "./words.js";

export interface ClassifyOptions {
  /** $HOME, for `~` and `cd` with no operand. */
  home: string;
  /** Parses the string of `bash -c '...'` (the same parser, already loaded). */
  parse: (source: string) => ParsedShell;
  /** The absolute directory the line starts in; without it a `cd` leaves the directory unknown. */
  cwd?: string;
  /** Whether a path is a folder now (a `cd` into it succeeds); absent: never known. */
  isDir?: (absolute: string) => boolean;
  /** Names in the environment the shell starts with. */
  exported?: ReadonlySet<string>;
  /** The file names a glob names now, as bash expands it (undefined past the cap); absent: globs ask. */
  glob?: (pattern: string, absoluteDir: string) => string[] | undefined;
  /** The shell's $PWD when the line starts (bash takes the physical directory: no PWD is passed). */
  pwd?: string;
  /** A path as the kernel resolves it (symlinks, then `..`): where `cd` lands when bash's logical path fails. */
  realpath?: (absolute: string) => string;
  /** Bounds the time the check may take (expansions, scans); absent: unbounded. */
  budget?: CheckBudget;
  /** What the shell's locale makes of `$'\u...'` and of a glob's order; absent: neither is known. */
  locale?: ShellLocale;
  /** Which shell a name runs (`sh` is dash on Debian): "bash", "dash", or undefined when another or unknown. */
  shellOf?: (name: string) => "bash" | "dash" | undefined;
}

/** Statement nodes of the subset; anything else is named and asked. */
const OUTSIDE: Record<string, string> = {
  function_definition: "function definition",
  for_statement: "for loop",
  c_style_for_statement: "arithmetic for loop",
  while_statement: "while or until loop",
  case_statement: "case statement",
  unset_command: "unset",
  ERROR: "text bash would not parse the same way",
};

const MAX_DEPTH = 200;

/** Commands that treat every operand alike: the order of a glob's names does not change what they do. */
const ORDER_FREE = new Set([
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "nl",
  "rev",
  "stat",
  "du",
  "file",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "tree",
  "echo",
  "rm",
  "rmdir",
  "unlink",
  "touch",
  "mkdir",
]);

/**
 * Classifies a parsed command line against the subset of bash it models exactly: simple commands
 * of literal and quoted words and plain expansions of variables with known values, pipelines,
 * `&&`, `||`, `;`, `!`, subshells, `{ ...; }`, `if`, redirections to literal paths, here-docs
 * with a quoted delimiter (or no expansion), `$(...)` and `<(...)`. Every construct outside it
 * becomes one ask that names it. Pure but for the file-system facts the options give.
 */
export function classifyShell(parsed: ParsedShell, options: ClassifyOptions): ShellAnalysis {
  const out: ShellAnalysis = { commands: [], writes: [], reads: [], asks: [] };
  const line: LineState = { dirty: false, linked: false };
  new Walker(parsed.source, options, out, line, 0).program(parsed, { cwd: ".", vars: new Map() });
  return dedupe(out);
}

class Walker {
  private readonly paths: PathRecorder;

  constructor(
    private readonly source: string,
    private readonly options: ClassifyOptions,
    private readonly out: ShellAnalysis,
    private readonly line: LineState,
    private readonly nesting: number,
    /** "posix": the script runs under sh (dash, or bash in POSIX mode): what those read otherwise asks. */
    private readonly dialect: "bash" | "posix" = "bash",
  ) {
    this.paths = new PathRecorder({
      out,
      line,
      ask: (reason, text) => this.ask(reason, text),
      home: options.home,
      orderKnown: options.locale?.codepointOrder === true,
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(options.glob !== undefined ? { glob: options.glob } : {}),
      ...(options.budget !== undefined ? { budget: options.budget } : {}),
    });
  }

  program(parsed: ParsedShell, scope: Scope): Outcome {
    for (const c of lexicalConstructs(parsed.source)) this.ask(c.construct, c.text);
    if (this.dialect === "posix") for (const c of posixDifferences(parsed)) this.ask(c.construct, c.text);
    if (parsed.hasError) this.ask("text bash would not parse the same way", parsed.source);
    return this.sequence(parsed.root.children, scope, 0);
  }

  private text(n: ShellNode): string {
    return this.source.slice(n.start, n.end);
  }

  private ask(reason: string, text: string): void {
    this.out.asks.push({ reason, text: text.length > 200 ? `${text.slice(0, 200)}…` : text });
  }

  /** Statements one after another (`;`, newline): each starts where the last left the shell. */
  private sequence(nodes: readonly ShellNode[], scope: Scope, depth: number): Outcome {
    let now: Outcome = { ok: scope, any: scope };
    for (const n of nodes) {
      if (!n.named) {
        if (n.type === ";" || n.type === "\n") continue;
        if (n.type === "&") this.ask("background job (&)", this.text(n));
        else this.ask(`'${n.type}' where bash expects a command`, this.text(n));
        continue;
      }
      now = this.statement(n, now.any, depth);
    }
    return now;
  }

  private statement(n: ShellNode, scope: Scope, depth: number): Outcome {
    this.options.budget?.check();
    const same = { ok: scope, any: scope };
    if (depth > MAX_DEPTH) {
      this.ask("the command line nests too deeply to check", this.text(n));
      return unknownCwd(scope);
    }
    const d = depth + 1;
    if (n.broken) {
      this.ask(OUTSIDE.ERROR!, this.text(n));
      this.inside(n, scope, d);
      return unknownCwd(scope);
    }
    switch (n.type) {
      case "comment":
        return same;
      case "program":
        return this.sequence(n.children, scope, d);
      case "list":
        return this.list(n.children, scope, d);
      case "pipeline":
        // every part of a pipeline runs in a subshell: nothing it sets is seen after it
        for (const c of n.children) {
          // `a |& b | c && d` is (a |& b | c) && d to bash; the grammar may nest the list inside
          if (c.type === "list")
            this.ask("a list inside a pipeline (bash would not parse it the same way)", this.text(n));
          if (c.named) this.statement(c, copy(scope), d);
          else if (c.type !== "|" && c.type !== "|&") this.ask(`'${c.type}' in a pipeline`, this.text(c));
        }
        return same;
      case "subshell":
        this.sequence(
          n.children.filter((c) => c.type !== "(" && c.type !== ")"),
          copy(scope),
          d,
        );
        return same;
      case "compound_statement": {
        if (n.children.some((c) => c.type === "((")) {
          this.ask("arithmetic command ((...))", this.text(n));
          this.inside(n, scope, d);
          return unknownCwd(scope);
        }
        return this.sequence(
          n.children.filter((c) => c.type !== "{" && c.type !== "}"),
          scope,
          d,
        );
      }
      case "negated_command": {
        const body = n.children.filter((c) => c.named);
        let r = same;
        for (const c of body) r = this.statement(c, r.any, d);
        return { ok: r.any, any: r.any };
      }
      case "redirected_statement":
        this.mergedLines(n);
        return this.redirected(n, scope, d);
      case "command":
        return this.command(n, scope, d);
      case "variable_assignment":
      case "variable_assignments":
        return this.assignments(n, scope, d);
      case "declaration_command":
        return this.declaration(n, scope, d);
      case "if_statement":
        return this.ifStatement(n, scope, d);
      case "file_redirect":
      case "heredoc_redirect":
        // `> f` alone truncates f; `$(< f)` reads it
        this.redirect(n, scope, d);
        return same;
      case "test_command":
        this.testCommand(n, scope, d);
        return same;
      default: {
        const construct = OUTSIDE[n.type] ?? (n.named ? n.type.replace(/_/g, " ") : `'${n.type}'`);
        this.ask(construct, this.text(n));
        this.inside(n, scope, d);
        return unknownCwd(scope);
      }
    }
  }

  /** Commands inside a construct outside the subset: still classified, so a deny rule sees them. */
  private inside(n: ShellNode, scope: Scope, depth: number): void {
    // the line is one ask already; past this depth its deeper commands are not listed (a crafted
    // line nested 20,000 deep overflowed the stack here)
    if (depth > MAX_DEPTH) {
      this.ask("the command line nests too deeply to check", this.text(n));
      return;
    }
    for (const c of n.children) {
      if (c.type === "command" || c.type === "command_substitution" || c.type === "process_substitution") {
        if (c.type === "command") this.statement(c, copy(scope), depth);
        else this.sequence(c.children, copy(scope), depth);
      } else this.inside(c, scope, depth + 1);
    }
  }

  /** `a && b`: b runs where a succeeded. `a || b`: b runs where a failed. */
  private list(children: readonly ShellNode[], scope: Scope, depth: number): Outcome {
    let now: Outcome | undefined;
    let op = "";
    for (const c of children) {
      if (!c.named) {
        op = c.type;
        if (op !== "&&" && op !== "||") this.ask(`'${op}' in a list`, this.text(c));
        continue;
      }
      if (now === undefined) {
        now = this.statement(c, scope, depth);
        continue;
      }
      if (op === "&&") {
        const r = this.statement(c, now.ok, depth);
        now = { ok: r.ok, any: merge(now.any, r.any) };
      } else {
        const r = this.statement(c, now.any, depth);
        now = { ok: merge(now.ok, r.ok), any: merge(now.any, r.any) };
      }
    }
    return now ?? { ok: scope, any: scope };
  }

  /** `if c; then a; elif d; then b; else e; fi`: each body runs where its condition left the shell. */
  private ifStatement(n: ShellNode, scope: Scope, depth: number): Outcome {
    const ends: Scope[] = [];
    let failed = scope;
    let hasElse = false;
    const clause = (children: readonly ShellNode[], start: Scope, withCondition: boolean) => {
      let cond: Outcome = { ok: start, any: start };
      let body: Outcome | undefined = withCondition ? undefined : { ok: start, any: start };
      for (const c of children) {
        if (!c.named) {
          if (c.type === "then") body = { ok: cond.ok, any: cond.ok };
          else if (!["if", "elif", "else", "fi", ";", "\n"].includes(c.type))
            this.ask(`'${c.type}' in an if statement`, this.text(c));
          continue;
        }
        if (c.type === "elif_clause" || c.type === "else_clause") continue;
        if (body === undefined) cond = this.statement(c, cond.any, depth);
        else body = this.statement(c, body.any, depth);
      }
      ends.push((body ?? cond).any);
      failed = cond.any;
    };
    clause(n.children, scope, true);
    for (const c of n.children) {
      if (c.type === "elif_clause") clause(c.children, failed, true);
      if (c.type === "else_clause") {
        hasElse = true;
        clause(c.children, failed, false);
      }
    }
    if (!hasElse) ends.push(failed);
    const end = merge(...ends);
    return { ok: end, any: end };
  }

  private redirected(n: ShellNode, scope: Scope, depth: number): Outcome {
    const body = n.children.find((c) => c.field === "body");
    const redirects = n.children.filter((c) => c !== body && c.named);
    if (body?.type === "list") {
      // tree-sitter-bash hangs `a && b > f` on the list; bash gives `> f` to b alone
      const items = body.children;
      const last = items.findLastIndex((x) => x.named);
      const head = this.list(items.slice(0, last - 1), scope, depth);
      const op = items[last - 1]?.type;
      const start = op === "||" ? head.any : head.ok;
      for (const r of redirects) this.redirect(r, start, depth);
      const r = this.statement(items[last]!, start, depth);
      return op === "||"
        ? { ok: merge(head.ok, r.ok), any: merge(head.any, r.any) }
        : { ok: r.ok, any: merge(head.any, r.any) };
    }
    // the redirections are opened before the body runs, from the directory it starts in
    for (const r of redirects) this.redirect(r, scope, depth);
    return body === undefined ? { ok: scope, any: scope } : this.statement(body, scope, depth);
  }

  private wordEnv(scope: Scope) {
    return {
      lookup: (name: string) => {
        const v = scope.vars.get(name);
        if (v !== undefined) return v ?? undefined;
        if (name === "HOME") return this.options.home;
        // bash keeps $PWD as its logical directory (set at start from the physical one)
        if (name === "PWD") return this.pwdOf(scope);
        return undefined;
      },
      outside: (construct: string, text: string) => this.ask(construct, text),
      utf8Escapes: this.options.locale?.utf8 === true,
    };
  }

  /** A word's value, with the commands of its substitutions classified (they run in subshells). */
  private word(n: ShellNode, scope: Scope, depth: number): Word {
    this.substitutions(n, scope, depth);
    return wordOf(n, this.source, this.wordEnv(scope), this.options.home);
  }

  private substitutions(n: ShellNode, scope: Scope, depth: number): void {
    const stack = [n];
    while (stack.length > 0) {
      const c = stack.pop()!;
      if (c.type === "command_substitution" || c.type === "process_substitution") {
        const inner = c.children.filter((x) => x.named);
        this.sequence(inner, copy(scope), depth + 1);
        continue;
      }
      if (c.broken) this.ask(OUTSIDE.ERROR!, this.text(c));
      for (const x of c.children) stack.push(x);
    }
  }

  /** `> f`, `>> f`, `>| f`, `&> f`, `<> f` write f; `< f` reads it; here-docs and here-strings. */
  private redirect(n: ShellNode, scope: Scope, depth: number): void {
    if (n.type === "file_redirect") {
      this.fileRedirect(n, scope, depth);
      return;
    }
    if (n.type === "heredoc_redirect") {
      this.heredoc(n, scope, depth);
      return;
    }
    if (n.type === "herestring_redirect") {
      for (const c of n.children) if (c.named) this.word(c, scope, depth);
      return;
    }
    this.ask(`${n.type.replace(/_/g, " ")} as a redirection`, this.text(n));
  }

  private fileRedirect(n: ShellNode, scope: Scope, depth: number): void {
    const op = n.children.find((c) => !c.named)?.type ?? "";
    const dests = n.children.filter((c) => c.field === "destination");
    if (op === ">&-" || op === "<&-") return;
    if (dests.length !== 1) {
      this.ask("a redirection with more than one word", this.text(n));
      for (const dst of dests) this.word(dst, scope, depth);
      return;
    }
    const word = this.word(dests[0]!, scope, depth);
    if (word.glob) {
      // bash expands it and fails on more than one word: not worth modelling
      this.ask("a redirection to a glob or brace expansion", this.text(n));
      return;
    }
    if (op === ">&" || op === "<&") {
      if (word.value === "-" || (word.value !== undefined && /^[0-2]-?$/.test(word.value))) return;
      if (word.value !== undefined && /^\d+-?$/.test(word.value)) {
        this.ask(`duplicating descriptor ${word.value} (it may be open on any file)`, this.text(n));
        return;
      }
      if (op === "<&") {
        this.ask("<& with a word that is not a descriptor", this.text(n));
        return;
      }
    }
    const via = `redirection ${op}`;
    if (op === "<") this.paths.readPath(word, scope, { subtree: false }, via);
    else this.paths.writePath(word, scope, { subtree: false }, via, "redirection");
  }

  private heredoc(n: ShellNode, scope: Scope, depth: number): void {
    const start = n.children.find((c) => c.type === "heredoc_start");
    const delimiter = start ? this.text(start) : "";
    const quoted = /^'[^']*'$|^"[^"$`\\]*"$|^\\\w+$/.test(delimiter);
    const plain = /^[A-Za-z0-9_.-]+$/.test(delimiter);
    if (!quoted && !plain) {
      this.ask("a here-document delimiter that is partly quoted", this.text(n));
    }
    for (const c of n.children) {
      if (c.type === "heredoc_body") {
        if (!quoted && /[$`\\]/.test(this.text(c))) {
          this.ask("an unquoted here-document with expansions (quote the delimiter: <<'EOF')", this.text(c));
          this.substitutions(c, scope, depth);
        }
      } else if (
        c.type === "file_redirect" ||
        c.type === "heredoc_redirect" ||
        c.type === "herestring_redirect"
      )
        this.redirect(c, scope, depth);
      else if (
        c.named &&
        c.type !== "heredoc_start" &&
        c.type !== "heredoc_end" &&
        c.type !== "heredoc_content"
      ) {
        // `cat <<EOF | grep x` and `cat <<EOF && b`: the grammar keeps the rest of the line here
        this.statement(c, copy(scope), depth);
      }
    }
  }

  private assignments(n: ShellNode, scope: Scope, depth: number): Outcome {
    const next: Scope = copy(scope);
    const list =
      n.type === "variable_assignment" ? [n] : n.children.filter((c) => c.type === "variable_assignment");
    for (const a of list) this.assign(a, next, depth, false);
    return { ok: next, any: next };
  }

  /** One `NAME=value`: the value is known, or null; a risky name asks. */
  private assign(a: ShellNode, scope: Scope, depth: number, forCommand: boolean): string | undefined {
    const nameNode = a.children.find((c) => c.field === "name");
    const valueNode = a.children.find((c) => c.field === "value");
    const op = a.children.find((c) => !c.named)?.type;
    if (nameNode?.type !== "variable_name") {
      this.ask("array assignment", this.text(a));
      if (valueNode) this.substitutions(valueNode, scope, depth);
      return undefined;
    }
    const name = this.text(nameNode);
    if (op !== "=") this.ask(`'${op}' assignment`, this.text(a));
    if (valueNode?.type === "array") this.ask("array assignment", this.text(a));
    const risk = assignmentRisk(name, this.options.exported ?? new Set(), forCommand);
    if (risk !== undefined) this.ask(risk, this.text(a));
    let value = valueNode === undefined ? "" : this.word(valueNode, scope, depth).value;
    // in an assignment bash expands a `~` after each `:` too (`PATH=a:~/bin`)
    if (value !== undefined && valueNode?.type === "word" && /:~/.test(this.text(valueNode))) {
      const parts = value.split(":").map((p, i) => (i === 0 ? p : leadingTilde(p, this.options.home)));
      if (parts.some((p) => p === undefined)) {
        this.ask("~user expansion", this.text(a));
        value = undefined;
      } else value = parts.join(":");
    }
    if (!forCommand) scope.vars.set(name, value ?? null);
    return name;
  }

  private declaration(n: ShellNode, scope: Scope, depth: number): Outcome {
    const keyword = n.children[0]?.type ?? "declare";
    const next = copy(scope);
    const rest = n.children.slice(1).filter((c) => c.named);
    if (keyword !== "export" || rest.length === 0 || rest.some((c) => c.type !== "variable_assignment")) {
      this.ask(`declaration command ${keyword}`, this.text(n));
      for (const c of rest) this.substitutions(c, scope, depth);
      return unknownCwd(scope);
    }
    for (const a of rest) this.assign(a, next, depth, true);
    for (const a of rest) {
      const nameNode = a.children.find((c) => c.field === "name");
      const valueNode = a.children.find((c) => c.field === "value");
      if (nameNode)
        next.vars.set(
          this.text(nameNode),
          valueNode
            ? (wordOf(valueNode, this.source, this.wordEnv(scope), this.options.home).value ?? null)
            : "",
        );
    }
    return { ok: next, any: next };
  }

  /** `[ ... ]` and `[[ ... ]]`: only the first, with literal operators and no -v (it evaluates subscripts). */
  private testCommand(n: ShellNode, scope: Scope, depth: number): void {
    const text = this.text(n);
    if (text.startsWith("[[")) {
      this.ask("conditional expression [[ ]]", text);
      this.substitutions(n, scope, depth);
      return;
    }
    const walk = (c: ShellNode) => {
      if (c.type === "test_operator" && /^-[vR]$/.test(this.text(c)))
        this.ask(`test ${this.text(c)} (it evaluates a subscript)`, text);
      if (
        [
          "word",
          "string",
          "raw_string",
          "simple_expansion",
          "expansion",
          "command_substitution",
          "number",
          "concatenation",
          "ansi_c_string",
        ].includes(c.type)
      ) {
        const w = this.word(c, scope, depth);
        if (w.value === undefined && c.type !== "string" && w.unknown !== undefined && !w.raw.startsWith('"'))
          this.ask(`an unquoted ${w.unknown} inside [ ] (its words could become operators)`, text);
        return;
      }
      if (
        ![
          "test_operator",
          "unary_expression",
          "binary_expression",
          "parenthesized_expression",
          "[",
          "]",
          "!",
          "=",
          "==",
          "!=",
        ].includes(c.type) &&
        c.named
      )
        this.ask(`${c.type.replace(/_/g, " ")} inside [ ]`, text);
      for (const x of c.children) walk(x);
    };
    for (const c of n.children) walk(c);
    this.out.commands.push({ patterns: [text], readOnly: "test, read-only form" });
  }

  /**
   * A newline between two parts of one command: bash ends the command there, but the grammar can
   * join the next line on (`a | b | c<newline>touch f` became `c touch f`). A backslash-newline
   * is a continuation and fine.
   */
  private mergedLines(n: ShellNode): void {
    for (let i = 1; i < n.children.length; i++) {
      const gap = this.source.slice(n.children[i - 1]!.end, n.children[i]!.start);
      if (/(^|[^\\])\n/.test(gap)) {
        this.ask("a newline inside one command (bash would not parse it the same way)", this.text(n));
        return;
      }
    }
  }

  private command(n: ShellNode, scope: Scope, depth: number): Outcome {
    this.mergedLines(n);
    const prefix: ShellNode[] = [];
    let nameNode: ShellNode | undefined;
    const argNodes: ShellNode[] = [];
    for (const c of n.children) {
      if (c.type === "variable_assignment") prefix.push(c);
      else if (c.field === "redirect") this.redirect(c, scope, depth);
      else if (c.field === "name") nameNode = c;
      else if (c.field === "argument") argNodes.push(c);
      else if (c.named) this.ask(`${c.type.replace(/_/g, " ")} in a command`, this.text(c));
    }
    const words = [nameNode, ...argNodes]
      .filter((x) => x !== undefined)
      .map((x) => this.word(x, scope, depth));
    for (const a of prefix) this.assign(a, scope, depth, true);
    if (nameNode === undefined) return { ok: scope, any: scope };
    return this.simple(words, scope, depth, this.text(n));
  }

  /** One simple command given as words (also the inner command of a wrapper, xargs, find -exec, sudo). */
  simple(
    words: Word[],
    scope: Scope,
    depth: number,
    text: string,
    how: Parameters<Site["run"]>[1] = {},
  ): Outcome {
    const same = { ok: scope, any: scope };
    const [name, ...written] = words;
    if (name === undefined) return same;
    let args = written;
    if (name.value === undefined || name.glob || name.pipe) {
      this.ask(
        name.glob
          ? "a glob or brace expansion in the command name"
          : "a command name only known when it runs",
        name.raw,
      );
      this.line.dirty = this.line.linked = true;
      return unknownCwd(scope);
    }
    // bash expands braces and globs into words before the command sees them: so does the check
    // (`uniq dash/*` may be `uniq IN OUT`; a file named `--pre=sh` becomes an option)
    args = args.flatMap((a) => this.paths.expandArgument(a, scope));
    // a glob's names in an order only the locale knows: fine where every operand is a path alike
    if (args.some((a) => a.expanded) && !ORDER_FREE.has(name.value)) {
      this.ask(
        `${name.value} is given the names a glob matched, in an order that depends on the shell's locale`,
        text,
      );
      this.line.dirty = this.line.linked = true;
      return unknownCwd(scope);
    }
    const wrapped = unwrap(name.value, args);
    if (wrapped !== undefined) {
      if ("ask" in wrapped) {
        this.ask(wrapped.ask, text);
        this.line.dirty = this.line.linked = true;
        return same;
      }
      for (const r of wrapped.reads) this.paths.readPath(r, scope, { subtree: false }, name.value);
      for (const a of wrapped.assignments) {
        const nm = a.value!.slice(0, a.value!.indexOf("="));
        const risk = assignmentRisk(nm, this.options.exported ?? new Set(), true);
        if (risk !== undefined) this.ask(risk, text);
      }
      if (wrapped.inner.length === 0) {
        // bare env prints the environment; a bare wrapper otherwise does nothing
        if (name.value === "env") this.out.commands.push({ patterns: [words.map(shown).join(" ")] });
        return same;
      }
      const innerHow = wrapped.stdinArgs
        ? { ...how, stdinArgs: true, ...(wrapped.replace !== undefined ? { replace: wrapped.replace } : {}) }
        : how;
      this.simple(wrapped.inner, copy(scope), depth + 1, text, innerHow);
      return same;
    }
    if (!name.value.includes("/")) {
      const b = builtin<Outcome>(name.value, args, {
        ask: (reason) => {
          this.ask(reason, text);
          this.line.dirty = this.line.linked = true;
        },
        command: (readOnly) =>
          this.out.commands.push({
            patterns: [words.map(shown).join(" ")],
            ...(readOnly && !printsEnvironment(args) ? { readOnly } : {}),
          }),
        cd: (target, physical) => this.cd(target, scope, physical),
      });
      if (b === null) return same;
      if (b !== undefined) return b;
    }
    return this.runProgram(name.value, words, args, scope, depth, text, how);
  }

  private runProgram(
    command: string,
    words: Word[],
    args: Word[],
    scope: Scope,
    depth: number,
    text: string,
    how: Parameters<Site["run"]>[1] = {},
  ): Outcome {
    const same = { ok: scope, any: scope };
    // a command run by path is known by its name only from the system's folders (./cat is not cat)
    const base = /^\/(usr\/)?(local\/)?s?bin\/[^/]+$/.test(command) ? path.posix.basename(command) : command;
    const patterns = [words.map(shown).join(" ")];
    if (how.stdinArgs && how.replace === undefined) patterns[0] += " <arguments read from input>";
    if (base !== command) patterns.push([base, ...patterns[0]!.split(" ").slice(1)].join(" "));
    const use: ShellAnalysis["commands"][number] = { patterns };
    this.out.commands.push(use);
    if (!isModelled(base)) {
      this.line.dirty = this.line.linked = true;
      return same;
    }
    const walker = this;
    const stdinWord = {
      ...literal("<arguments read from input>"),
      value: undefined,
      unknown: "arguments read from input",
    };
    const handlerArgs = how.stdinArgs
      ? [
          ...args.map((a) =>
            how.replace !== undefined && (a.value ?? "").includes(how.replace)
              ? { ...a, value: undefined, unknown: "arguments read from input" }
              : a,
          ),
          ...(how.replace === undefined ? [stdinWord] : []),
        ]
      : args;
    let asked = false;
    let readOnly: string | undefined;
    const at = (
      target: Word | string,
      opts: { subtree?: boolean; base?: string | undefined; ancestors?: boolean },
      fn: (w: Word, s: Scope, o: { subtree: boolean; base?: string | undefined }) => void,
    ) => {
      const t = typeof target === "string" ? literal(target) : target;
      if (how.placeholderRoots && t.value?.includes("{}")) {
        for (const root of how.placeholderRoots) fn(root, scope, { subtree: true, base: opts.base });
        return;
      }
      fn(t, scope, { subtree: opts.subtree === true, base: opts.base });
    };
    const site: Site = {
      name: base,
      args: handlerArgs,
      write(target, opts = {}) {
        at(target, opts, (w, s, o) =>
          walker.paths.writePath(w, s, { ...o, ancestors: opts.ancestors === true }, base, base),
        );
      },
      read(target, opts = {}) {
        at(target, opts, (w, s, o) =>
          walker.paths.readPath(
            w,
            s,
            {
              ...o,
              contents: opts.contents === true,
              follows: opts.follows === true,
              visible: opts.visible === true,
            },
            base,
          ),
        );
      },
      ask(reason) {
        asked = true;
        walker.ask(reason, text);
      },
      run(inner, innerHow = {}) {
        walker.simple(inner, copy(scope), depth + 1, inner.map((w) => w.raw).join(" "), innerHow);
      },
      script(word) {
        if (word.value === undefined) return this.ask(`${base} -c runs a script only known when it runs`);
        if (walker.nesting > 8) return this.ask(`${base} -c nests too deeply to check`);
        // the script is read by the shell that runs it: sh is dash on Debian, bash in POSIX mode elsewhere
        const kind = base === "bash" ? "bash" : walker.options.shellOf?.(command);
        if (kind === undefined || (base !== "bash" && base !== "sh" && base !== kind))
          return this.ask(`${base} -c: ${base} here is a shell whose reading of the script is not modelled`);
        const parsed = walker.options.parse(word.value);
        new Walker(
          parsed.source,
          walker.options,
          walker.out,
          walker.line,
          walker.nesting + 1,
          base === "bash" ? "bash" : "posix",
        ).program(parsed, copy(scope));
      },
      readOnly(form) {
        readOnly = form;
      },
      repository(dir, how) {
        const at = resolveFrom(dir, scope.cwd);
        if (at === undefined) return this.ask("git runs in a directory only known when it runs");
        if (procPath(at).kind !== "plain") return this.ask(`git runs in ${at}, the process's own directory`);
        use.git = { dir: at, ...how };
      },
    };
    classifyCommand(site);
    if (readOnly !== undefined && !asked && !printsEnvironment(args)) use.readOnly = readOnly;
    else if (readOnly === undefined) this.line.dirty = true;
    if (readOnly === undefined && !NO_LINKS.has(base)) this.line.linked = true;
    return same;
  }

  /**
   * `cd`: bash's logical directory (`cd link/..` is where the link is), kept as an absolute path
   * with no `..` in it, so that a path joined to it reaches, through the kernel, the folder the
   * shell is in. Known after the line only when the cd cannot fail (`cd x; rm f` runs rm here
   * when x is not a folder) or, for `&&`, on the branch where it succeeded.
   */
  private cd(target: Word | undefined, scope: Scope, physical: boolean): Outcome {
    let value: string | undefined;
    if (target === undefined) value = this.options.home;
    else if (target.value !== undefined && target.value !== "-" && !target.glob) value = target.value;
    const pwd = this.pwdOf(scope);
    const stay = { ...copy(scope) };
    if (value === "") return { ok: stay, any: stay };
    let next: string | undefined;
    let sure = false;
    if (value === undefined) next = undefined;
    else if (pwd === undefined) {
      // no directory to start from (a classification without one): only a plain relative join
      next = value.split("/").includes("..") ? undefined : resolveFrom(value, scope.cwd);
    } else if (this.line.dirty || this.options.isDir === undefined)
      next = physical ? undefined : plainCd(pwd, value);
    else {
      const isDir = this.options.isDir;
      const joined = value.startsWith("/") ? value : `${pwd}/${value}`;
      // bash tries the logical path first and, where that fails, the path as the kernel walks it
      const logical = physical ? undefined : logicalCd(pwd, value, isDir);
      const real = logical ?? this.options.realpath?.(joined);
      if (real !== undefined && isDir(real)) {
        next = logical ?? real;
        sure = true;
      }
    }
    const ok = { ...copy(scope), cwd: next };
    return { ok, any: sure ? ok : { ...copy(scope), cwd: next === scope.cwd ? next : undefined } };
  }

  /** The shell's $PWD in this scope: absolute, or undefined when unknown (or no start was given). */
  private pwdOf(scope: Scope): string | undefined {
    const start = this.options.pwd ?? this.options.cwd;
    if (scope.cwd === undefined || start === undefined) return undefined;
    return path.posix.resolve(start, scope.cwd);
  }
}

/**
 * `echo $API_KEY`: a variable only the environment knows may be a secret, so a command that
 * shows one is not read-only (a rule may still allow it). `$HOME` and variables the line set are known.
 */
function printsEnvironment(args: readonly Word[]): boolean {
  return args.some((a) => a.unknown?.startsWith("$") && a.unknown !== "$(...)");
}

function shown(w: Word): string {
  return w.value ?? w.raw;
}
