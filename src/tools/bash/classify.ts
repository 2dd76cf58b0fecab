import path from "node:path";
import { classifyCommand, literal, SHELL_ONLY, type Site, WRAPPERS } from "./commands.js";
import { parseOptions } from "./options.js";
import type { ParsedShell, ShellNode } from "./parser.js";
import { type Word, wordOf } from "./words.js";

/** One simple command of a command line, as the permission rules see it. */
export interface CommandUse {
  /** The command as written, quotes removed (`git status --short`); for a command run by path, also by name. */
  patterns: string[];
}

/** A file or folder a command line writes. */
export interface WriteUse {
  /** Relative to the directory the line starts in ("/"-separated), or absolute. */
  path: string;
  /** Everything below the path too (`rm -r`, `find -delete`, a git checkout). */
  subtree: boolean;
  /** The path is a glob the shell expands to file names. */
  glob: boolean;
  /** The command that writes it. */
  via: string;
}

/** Something the classifier cannot see through: the call must ask. */
export interface AskUse {
  reason: string;
  text: string;
}

export interface ShellAnalysis {
  commands: CommandUse[];
  writes: WriteUse[];
  asks: AskUse[];
}

export interface ClassifyOptions {
  /** $HOME, for `~` in paths. */
  home: string;
  /** Parses the string of `bash -c '...'` (the same parser, already loaded). */
  parse: (source: string) => ParsedShell;
}

/** Paths that are not files a write could harm. */
const HARMLESS = /^\/dev\/(null|stdout|stderr|tty|zero|full|fd\/\d+)$|^\/proc\/self\/fd\/\d+$/;

/** Variables that change which program runs or what a shell does: assigning one needs approval. */
const DANGEROUS_VARIABLE =
  /^(PATH|LD_\w+|DYLD_\w+|BASH_ENV|ENV|IFS|PROMPT_COMMAND|PS4|SHELLOPTS|BASHOPTS|CDPATH|HOME|NODE_OPTIONS|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|PERL5LIB|RUBYOPT|GIT_\w+|EDITOR|VISUAL|PAGER|BROWSER|LESSOPEN|MANPAGER|SSH_ASKPASS)$/;

/** Nesting past this is refused rather than walked (a pathological line must not hang the check). */
const MAX_DEPTH = 200;

interface Scope {
  /** The shell's directory relative to where the line starts ("." first), absolute, or undefined when unknown. */
  cwd: string | undefined;
  dirs: Array<string | undefined>;
  functions: Set<string>;
}

/**
 * Classifies a parsed command line: every simple command it runs (compound commands, pipes,
 * subshells, `$(...)`, `<(...)`, function bodies, `bash -c` strings and the commands that xargs,
 * find -exec and sudo run), every file it writes (redirections and the writing commands of
 * commands.ts), and everything it cannot see through. Pure: the same line gives the same result.
 */
export function classifyShell(parsed: ParsedShell, options: ClassifyOptions): ShellAnalysis {
  const out: ShellAnalysis = { commands: [], writes: [], asks: [] };
  new Walker(parsed.source, options, out, 0).program(parsed, { cwd: ".", dirs: [], functions: new Set() });
  return dedupe(out);
}

class Walker {
  constructor(
    private readonly source: string,
    private readonly options: ClassifyOptions,
    private readonly out: ShellAnalysis,
    private readonly nesting: number,
  ) {}

  program(parsed: ParsedShell, scope: Scope): void {
    if (parsed.hasError) {
      this.ask("the command line does not parse as bash, so what it runs cannot be known", parsed.source);
      // still classify what did parse: a deny rule should see the parts it can
    }
    this.statements(parsed.root.children, scope, 0);
  }

  private text(n: ShellNode): string {
    return this.source.slice(n.start, n.end);
  }

  private ask(reason: string, text: string): void {
    this.out.asks.push({ reason, text: text.length > 200 ? `${text.slice(0, 200)}…` : text });
  }

  /** Statements in sequence: the directory a `cd` sets carries to the next one. */
  private statements(nodes: readonly ShellNode[], scope: Scope, depth: number): Scope {
    let s = scope;
    for (const n of nodes) s = this.statement(n, s, depth);
    return s;
  }

  private statement(n: ShellNode, scope: Scope, depth: number): Scope {
    if (depth > MAX_DEPTH) {
      this.ask("the command line nests too deeply to check", this.text(n));
      return { ...scope, cwd: undefined };
    }
    const d = depth + 1;
    if (n.broken) {
      this.ask("part of the command line does not parse", this.text(n));
      this.substitutions(n, scope, d);
      return scope;
    }
    switch (n.type) {
      case "comment":
      case ";":
      case "&":
      case "&&":
      case "||":
      case "|":
      case "|&":
      case "\n":
        return scope;
      case "program":
      case "compound_statement":
      case "do_group":
        return this.statements(n.children, scope, d);
      case "list":
        return this.list(n, scope, d);
      case "pipeline":
        // every part of a pipeline runs in a subshell: a cd there changes nothing after it
        for (const c of n.children) if (c.named) this.statement(c, copy(scope), d);
        return scope;
      case "subshell":
        this.statements(n.children, copy(scope), d);
        return scope;
      case "negated_command":
        return this.statements(n.children, scope, d);
      case "redirected_statement":
        return this.redirected(n, scope, d);
      case "command":
        return this.command(n, scope, d);
      case "declaration_command":
      case "variable_assignment":
      case "variable_assignments":
        this.assignments(n, scope, d);
        return scope;
      case "unset_command":
      case "test_command":
        this.substitutions(n, scope, d);
        return scope;
      case "function_definition":
        return this.functionDefinition(n, scope, d);
      case "if_statement":
      case "elif_clause":
      case "else_clause":
      case "while_statement":
      case "for_statement":
      case "c_style_for_statement":
      case "case_statement":
      case "case_item":
        return this.compound(n, scope, d);
      default:
        if (!n.named) return scope;
        // an expression statement or a word on its own line: look inside for commands
        this.substitutions(n, scope, d);
        return scope;
    }
  }

  /** `a && b`: b runs where a left the shell. `a || b`: either may not have run, so a cd in them is unknown after. */
  private list(n: ShellNode, scope: Scope, depth: number): Scope {
    const parts = n.children;
    let s = scope;
    let op = "&&";
    for (const c of parts) {
      if (!c.named) {
        op = c.type;
        continue;
      }
      if (op === "||") {
        const before = s.cwd;
        const after = this.statement(c, { ...s, cwd: s.cwd }, depth);
        s = after.cwd === before ? after : { ...after, cwd: undefined };
      } else {
        s = this.statement(c, s, depth);
      }
    }
    return s;
  }

  /** if/while/for/case: bodies may run any number of times, so a cd inside leaves the directory unknown. */
  private compound(n: ShellNode, scope: Scope, depth: number): Scope {
    let run = copy(scope);
    let branchStart = copy(scope);
    let changed = false;
    for (const c of n.children) {
      if (!c.named) continue;
      if (c.type === "elif_clause" || c.type === "else_clause" || c.type === "case_item") {
        // another branch: it starts from where the condition left the shell, not from the last branch
        const after = this.statement(c, copy(branchStart), depth);
        changed ||= after.cwd !== scope.cwd;
        continue;
      }
      if (
        c.field === "value" ||
        c.field === "initializer" ||
        c.field === "update" ||
        !isStatementType(c.type)
      ) {
        // `for f in $(ls)`, `case $(cmd) in`: words, with commands only inside substitutions
        this.substitutions(c, run, depth);
        continue;
      }
      run = this.statement(c, run, depth);
      if (c.field === "condition") branchStart = copy(run);
    }
    changed ||= run.cwd !== scope.cwd;
    return changed ? { ...scope, cwd: undefined } : scope;
  }

  private functionDefinition(n: ShellNode, scope: Scope, depth: number): Scope {
    const name = n.children.find((c) => c.field === "name");
    if (name) scope.functions.add(this.text(name));
    // the body is checked as if it ran here: calling the function then needs nothing more
    for (const c of n.children) {
      if (c.field === "body") this.statement(c, copy(scope), depth);
      if (c.field === "redirect") this.redirect(c, scope, depth);
    }
    return scope;
  }

  private redirected(n: ShellNode, scope: Scope, depth: number): Scope {
    let after = scope;
    for (const c of n.children) {
      if (c.field === "body") {
        // the redirections are opened before the body runs: from the directory it starts in
        if (c.type === "list") {
          // tree-sitter-bash hangs `a && b > f` on the list; bash gives `> f` to b alone, which
          // runs where a left the shell
          const items = c.children.filter((x) => x.named);
          const head = { ...c, children: c.children.slice(0, c.children.indexOf(items.at(-1)!)) };
          const beforeLast = items.length > 1 ? this.list(head, scope, depth) : scope;
          const redirects = n.children.filter((x) => x.field !== "body" && x.named);
          for (const r of redirects) this.redirect(r, beforeLast, depth);
          return this.statement(items.at(-1)!, beforeLast, depth);
        }
        after = c.type === "command" ? this.command(c, scope, depth) : this.statement(c, scope, depth);
      } else if (c.named) this.redirect(c, scope, depth);
    }
    return after;
  }

  /** `> f`, `>> f`, `>| f`, `&> f`, `<> f` write f; heredocs may hold substitutions and a pipeline. */
  private redirect(n: ShellNode, scope: Scope, depth: number): void {
    if (n.type === "file_redirect") {
      const op = n.children.find((c) => !c.named)?.type ?? "";
      const dest = n.children.find((c) => c.field === "destination");
      if (dest === undefined) return;
      const word = wordOf(dest, this.source);
      this.substitutions(dest, scope, depth);
      if (op === "<" || op === "<&" || op === "<&-" || op === ">&-") return;
      if ((op === ">&" || op === "<&") && (dest.type === "number" || word.value === "-")) return;
      if (op === ">&" && word.value !== undefined && /^\d+-?$/.test(word.value)) return;
      this.write(word, scope, { subtree: false }, `redirection ${op}`);
      return;
    }
    if (n.type === "heredoc_redirect") {
      for (const c of n.children) {
        if (c.type === "heredoc_body") this.substitutions(c, scope, depth);
        else if (c.type === "file_redirect" || c.type === "heredoc_redirect") this.redirect(c, scope, depth);
        else if (c.named && isStatementType(c.type)) this.statement(c, scope, depth);
      }
      return;
    }
    if (n.type === "herestring_redirect") this.substitutions(n, scope, depth);
  }

  private assignments(n: ShellNode, scope: Scope, depth: number): void {
    const walk = (node: ShellNode) => {
      if (node.type === "variable_assignment") {
        const name = node.children.find((c) => c.field === "name");
        const varName = name ? this.text(name) : "";
        if (DANGEROUS_VARIABLE.test(varName)) {
          this.ask(`setting ${varName} changes which programs run or how the shell behaves`, this.text(node));
        }
      }
      for (const c of node.children) if (c.type === "variable_assignment") walk(c);
    };
    walk(n);
    this.substitutions(n, scope, depth);
  }

  /** Runs the commands inside `$(...)`, `<(...)`, `>(...)` and backticks found anywhere below n. */
  private substitutions(n: ShellNode, scope: Scope, depth: number): void {
    const stack = [n];
    while (stack.length > 0) {
      const c = stack.pop()!;
      if (c.type === "command_substitution" || c.type === "process_substitution") {
        this.statements(c.children, copy(scope), depth + 1);
        continue;
      }
      if (c.broken) this.ask("part of the command line does not parse", this.text(c));
      stack.push(...c.children);
    }
  }

  private command(n: ShellNode, scope: Scope, depth: number): Scope {
    const nameNode = n.children.find((c) => c.field === "name");
    const args = n.children.filter((c) => c.field === "argument").map((c) => wordOf(c, this.source));
    for (const c of n.children) {
      if (c.type === "variable_assignment") this.assignments(c, scope, depth);
      else if (c.field === "redirect") this.redirect(c, scope, depth);
      else if (c.field === "name" || c.field === "argument") this.substitutions(c, scope, depth);
      else if (c.type === "subshell") this.statement(c, scope, depth);
    }
    if (nameNode === undefined) return scope;
    const name = wordOf(nameNode, this.source);
    return this.simple([name, ...args], scope, depth, this.text(n));
  }

  /** One simple command given as words (also the inner command of xargs, find -exec, sudo, wrappers). */
  private simple(
    words: Word[],
    scope: Scope,
    depth: number,
    text: string,
    how: { stdinArgs?: boolean; replace?: string; placeholderRoots?: Word[] } = {},
  ): Scope {
    const [name, ...args] = words;
    if (name === undefined) return scope;
    if (name.value === undefined || name.glob) {
      this.ask("the command's name is only known when it runs", text);
      return scope;
    }
    const base = name.value.includes("/") ? path.posix.basename(name.value) : name.value;
    // wrappers that only change how the inner command runs: the inner command is what is checked
    const wrapper = WRAPPERS[base];
    if (wrapper) {
      const p = parseOptions(args, wrapper);
      const inner = wrapper.skipFirstOperand ? p.operands.slice(1) : p.operands;
      // `exec 3> f` only opens files (its redirections are classified apart)
      // `command -v x` only looks a name up
      if (base === "command" && (p.options.has("-v") || p.options.has("-V"))) return scope;
      if (inner.length > 0) return this.simple(inner, scope, depth, text, how);
      if (base === "exec" || base === "command" || base === "builtin") return scope;
    }
    if (base === "env") return this.env(args, scope, depth, text, how);
    if (base === "cd" || base === "pushd" || base === "popd") return this.cd(base, args, scope);
    if (scope.functions.has(name.value)) return scope;
    if (SHELL_ONLY.has(base) && !name.value.includes("/")) return scope;

    const shown = words.map((w) => w.value ?? w.raw);
    const patterns = [shown.join(" ")];
    if (base !== name.value) patterns.push([base, ...shown.slice(1)].join(" "));
    this.out.commands.push({ patterns });

    const walker = this;
    const argsForHandler =
      how.stdinArgs === true
        ? [
            ...args.map((a) =>
              how.replace !== undefined && (a.value ?? "").includes(how.replace)
                ? { ...a, value: undefined }
                : a,
            ),
            ...(how.replace === undefined
              ? [{ ...literal("<arguments read from input>"), value: undefined }]
              : []),
          ]
        : args;
    const site: Site = {
      name: base,
      args: argsForHandler,
      write(target, opts = {}) {
        const t =
          typeof target === "string"
            ? target === "\0"
              ? { ...literal("<unknown>"), value: undefined }
              : literal(target)
            : target;
        let subtree = opts.subtree === true;
        if (how.placeholderRoots && t.value?.includes("{}")) {
          // find -exec: {} is each file found below the roots
          for (const root of how.placeholderRoots)
            walker.write(root, scope, { subtree: true, base: opts.base }, base);
          return;
        }
        if (t.value === undefined && how.stdinArgs) {
          walker.ask(`${base} writes to files only known when it runs (arguments read from input)`, text);
          return;
        }
        if (t.value === undefined) subtree = false;
        walker.write(t, scope, { subtree, base: opts.base }, base);
      },
      ask(reason) {
        walker.ask(reason, text);
      },
      run(inner, innerHow = {}) {
        walker.simple(inner, copy(scope), depth + 1, inner.map((w) => w.raw).join(" "), innerHow);
      },
      script(word) {
        if (word.value === undefined) {
          walker.ask(`${base} -c runs a script only known when it runs`, text);
          return;
        }
        if (walker.nesting > 8) {
          walker.ask(`${base} -c nests too deeply to check`, text);
          return;
        }
        const parsed = walker.options.parse(word.value);
        new Walker(parsed.source, walker.options, walker.out, walker.nesting + 1).program(
          parsed,
          copy(scope),
        );
      },
    };
    classifyCommand(site);
    return scope;
  }

  /** `env [-i] [-u NAME] [NAME=value]... command`: the command is what is checked. */
  private env(
    args: Word[],
    scope: Scope,
    depth: number,
    text: string,
    how: { stdinArgs?: boolean; replace?: string; placeholderRoots?: Word[] },
  ): Scope {
    let i = 0;
    for (; i < args.length; i++) {
      const v = args[i]!.value;
      if (v === undefined) break;
      if (
        v === "-u" ||
        v === "--unset" ||
        v === "-C" ||
        v === "--chdir" ||
        v === "-S" ||
        v === "--split-string"
      ) {
        if (v === "-C" || v === "--chdir" || v === "-S" || v === "--split-string") {
          this.ask(`env ${v} changes what runs or where`, text);
        }
        i++;
        continue;
      }
      if (v.startsWith("-")) continue;
      const eq = v.indexOf("=");
      if (eq > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v.slice(0, eq))) {
        if (DANGEROUS_VARIABLE.test(v.slice(0, eq))) {
          this.ask(`setting ${v.slice(0, eq)} changes which programs run or how the shell behaves`, text);
        }
        continue;
      }
      break;
    }
    const inner = args.slice(i);
    if (inner.length === 0) {
      this.out.commands.push({ patterns: [["env", ...args.map((a) => a.value ?? a.raw)].join(" ")] });
      return scope;
    }
    return this.simple(inner, scope, depth, text, how);
  }

  private cd(kind: string, args: Word[], scope: Scope): Scope {
    const operands = args.filter((a) => !(a.value ?? "").startsWith("-") || a.value === "-");
    if (kind === "popd") {
      const dirs = [...scope.dirs];
      const top = dirs.pop();
      return { ...scope, cwd: dirs.length === scope.dirs.length ? undefined : top, dirs };
    }
    const target = operands[0];
    let cwd: string | undefined;
    if (target === undefined) cwd = kind === "cd" ? this.options.home : undefined;
    else if (target.value === "-") cwd = undefined;
    else if (target.value !== undefined && !target.glob) cwd = this.resolve(target.value, scope.cwd);
    const dirs = kind === "pushd" ? [...scope.dirs, scope.cwd] : scope.dirs;
    return { ...scope, cwd, dirs };
  }

  /** A path made absolute or relative to the line's start; undefined when it depends on the unknown. */
  private resolve(value: string, cwd: string | undefined): string | undefined {
    let v = value;
    if (v === "~" || v.startsWith("~/")) v = this.options.home + v.slice(1);
    else if (v.startsWith("~")) return undefined;
    if (v.startsWith("/")) return trimSlash(path.posix.normalize(v));
    if (cwd === undefined) return undefined;
    return trimSlash(path.posix.normalize(path.posix.join(cwd, v)));
  }

  private write(
    word: Word,
    scope: Scope,
    opts: { subtree: boolean; base?: string | undefined },
    via: string,
  ): void {
    if (word.value === undefined) {
      this.ask(`${via} writes to a path only known when it runs (${word.raw})`, word.raw);
      return;
    }
    if (word.value === "") return;
    let cwd = scope.cwd;
    if (opts.base !== undefined && opts.base !== ".")
      cwd =
        cwd === undefined
          ? opts.base.startsWith("/")
            ? opts.base
            : undefined
          : this.resolve(opts.base, cwd);
    const resolved = this.resolve(word.value, cwd);
    if (resolved === undefined) {
      this.ask(`${via} writes to ${word.value} in a directory only known when it runs`, word.raw);
      return;
    }
    if (HARMLESS.test(resolved)) return;
    this.out.writes.push({ path: resolved, subtree: opts.subtree, glob: word.glob, via });
  }
}

function trimSlash(p: string): string {
  return p.length > 1 && p.endsWith("/") ? p.replace(/\/+$/, "") || "/" : p;
}

function copy(scope: Scope): Scope {
  return { cwd: scope.cwd, dirs: [...scope.dirs], functions: new Set(scope.functions) };
}

function isStatementType(type: string): boolean {
  return [
    "command",
    "pipeline",
    "list",
    "subshell",
    "redirected_statement",
    "compound_statement",
    "do_group",
    "negated_command",
    "unset_command",
    "variable_assignments",
    "c_style_for_statement",
    "test_command",
    "declaration_command",
    "variable_assignment",
    "if_statement",
    "while_statement",
    "for_statement",
    "case_statement",
    "function_definition",
  ].includes(type);
}

/** Same line, same result: duplicates dropped, first occurrence kept. */
function dedupe(a: ShellAnalysis): ShellAnalysis {
  const seen = new Set<string>();
  const keep = <T>(xs: T[], key: (x: T) => string) =>
    xs.filter((x) => {
      const k = key(x);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  return {
    commands: keep(a.commands, (c) => `c\0${c.patterns.join("\0")}`),
    writes: keep(a.writes, (w) => `w\0${w.path}\0${w.subtree}`),
    asks: keep(a.asks, (x) => `a\0${x.reason}\0${x.text}`),
  };
}
