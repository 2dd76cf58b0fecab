import path from "node:path";
import type { ShellAnalysis } from "./analysis.js";
import { BraceUnknown, expandBraces } from "./braces.js";
import type { CheckBudget } from "./budget.js";
import { GLOB_MAX_MATCHES, GlobUnknown, isPattern } from "./glob.js";
import { type LineState, NO_LINKS, resolveFrom, type Scope } from "./scope.js";
import { procPath } from "./shell-paths.js";
import { hasBraceExpression, leadingTilde, type Word } from "./words.js";

/**
 * Turns the words a command reads or writes into paths relative to where the line starts, and
 * asks where that is not known now: a value only the run knows, a folder only the run knows, a
 * path after an earlier command of the line may have made a symlink, a glob after the files may
 * have changed, a descriptor path (`/dev/fd/3` reopens whatever is open there), `/dev/tcp`.
 */
export class PathRecorder {
  constructor(
    private readonly ctx: {
      out: ShellAnalysis;
      line: LineState;
      ask(reason: string, text: string): void;
      /** The absolute folder the line starts in. */
      cwd?: string;
      glob?: (pattern: string, absoluteDir: string) => string[] | undefined;
      /** $HOME, for a `~` that brace expansion puts at a word's start. */
      home?: string;
      /** A glob's names come in an order known now (the C locale's): see Word.expanded. */
      orderKnown?: boolean;
      budget?: CheckBudget;
    },
  ) {}

  /**
   * The words an argument becomes: braces expanded (textual, on the word as written, as bash does
   * first), then a leading `~`, then each piece with glob characters expanded to the file names
   * it names now (left as written when it names none). Asks where that cannot be known now: after
   * an earlier command may have changed the files, in a folder only the run knows, past the cap,
   * with quoting inside the pattern, or where bash's answer is not modelled.
   */
  expandArgument(w: Word, scope: Scope): Word[] {
    if (!w.glob || w.value === undefined) return [w];
    if (/['"\\]/.test(w.raw)) {
      this.ctx.ask(`the glob ${w.raw}, which mixes quoting into a pattern`, w.raw);
      return [w];
    }
    let pieces: string[] | undefined;
    if (/[$]/.test(w.raw)) {
      // an expansion's value is not brace-expanded (bash expands braces before it): braces there ask
      if (hasBraceExpression(w.raw)) {
        this.ctx.ask(`the brace expansion ${w.raw}, next to a parameter expansion`, w.raw);
        return [w];
      }
      pieces = [w.value];
    } else {
      try {
        pieces = expandBraces(w.raw, GLOB_MAX_MATCHES, this.ctx.budget);
      } catch (error) {
        if (!(error instanceof BraceUnknown)) throw error;
        this.ctx.ask(`${error.message} in ${w.raw}, which bash expands through quote removal`, w.raw);
        return [w];
      }
      if (pieces === undefined) {
        this.ctx.ask(`the brace expansion ${w.raw}, which names over ${GLOB_MAX_MATCHES} words`, w.raw);
        return [w];
      }
      const home = this.ctx.home;
      const tilded = pieces.map((p) =>
        home === undefined ? (p.startsWith("~") ? undefined : p) : leadingTilde(p, home),
      );
      if (tilded.some((p) => p === undefined)) {
        this.ctx.ask(`a ~user or ~ expansion the classifier does not model in ${w.raw}`, w.raw);
        return [w];
      }
      pieces = tilded as string[];
    }
    const out: Word[] = [];
    for (const piece of pieces) {
      if (!isPattern(piece)) {
        out.push({ ...w, raw: piece, value: piece, glob: false });
        continue;
      }
      const dir =
        scope.cwd === undefined || this.ctx.cwd === undefined
          ? undefined
          : path.resolve(this.ctx.cwd, scope.cwd);
      if (this.ctx.line.dirty) {
        this.ctx.ask(
          `the glob ${w.raw}, expanded after an earlier command of the line may have changed the files`,
          w.raw,
        );
        return [w];
      }
      let names: string[] | undefined;
      try {
        names = dir === undefined || this.ctx.glob === undefined ? undefined : this.ctx.glob(piece, dir);
      } catch (error) {
        if (!(error instanceof GlobUnknown)) throw error;
        this.ctx.ask(`the glob ${w.raw}: ${error.message}`, w.raw);
        return [w];
      }
      if (names === undefined) {
        this.ctx.ask(
          dir === undefined
            ? `the glob ${w.raw}, in a directory only known when it runs`
            : `the glob ${w.raw}, which names over ${GLOB_MAX_MATCHES} files`,
          w.raw,
        );
        return [w];
      }
      // bash lists the folders the pattern walks: a read of their names (below the first folder
      // with a pattern in it, the whole of it when a later segment has one too)
      const segments = piece.split("/");
      const first = segments.findIndex((x) => isPattern(x));
      const base = segments.slice(0, first).join("/") || (piece.startsWith("/") ? "/" : ".");
      const deeper = segments.slice(first + 1).some((x) => isPattern(x) || x === "");
      this.readPath(
        { ...w, raw: base, value: base, glob: false },
        scope,
        { subtree: deeper || segments.length - first > 1 },
        "glob",
      );
      // several names in the locale's order, not known now: which one is a grep pattern, say
      const several = names.length > 1 && this.ctx.orderKnown !== true;
      for (const n of names)
        out.push({ ...w, raw: n, value: n, glob: false, ...(several ? { expanded: true } : {}) });
    }
    return out;
  }

  readPath(
    word: Word,
    scope: Scope,
    opts: {
      subtree: boolean;
      base?: string | undefined;
      contents?: boolean;
      follows?: boolean;
      visible?: boolean;
    },
    via: string,
  ): void {
    if (word.pipe) return;
    const where = this.place(word, scope, opts, via, "reads");
    if (where === undefined) return;
    if (/^\/dev\/(tcp|udp)\//.test(where)) this.ctx.ask(`a network connection through ${where}`, word.raw);
    // devices that hold nothing of anyone's: reading them reads no file
    else if (!/^\/dev\/(null|zero|full|random|urandom)$/.test(where))
      this.ctx.out.reads.push({
        path: where,
        subtree: opts.subtree,
        glob: word.glob,
        via,
        ...(opts.contents ? { contents: true } : {}),
        ...(opts.follows ? { follows: true } : {}),
        ...(opts.visible ? { visible: true } : {}),
      });
  }

  writePath(
    word: Word,
    scope: Scope,
    opts: { subtree: boolean; base?: string | undefined; ancestors?: boolean },
    via: string,
    writer: string,
  ): void {
    if (word.pipe) return;
    const where = this.place(word, scope, opts, via, "writes to");
    this.ctx.line.dirty = true;
    if (!NO_LINKS.has(writer)) this.ctx.line.linked = true;
    if (where === undefined) return;
    if (where === "/dev/null") return;
    if (/^\/dev\/(tcp|udp)\//.test(where)) this.ctx.ask(`a network connection through ${where}`, word.raw);
    else if (/^\/dev\/(fd\/|std(in|out|err)$)|^\/proc\/[^/]+\/fd\//.test(where))
      this.ctx.ask(`write to ${where} (it reopens whatever file that descriptor has open)`, word.raw);
    else
      this.ctx.out.writes.push({
        path: where,
        subtree: opts.subtree,
        glob: word.glob,
        via,
        ...(opts.ancestors ? { ancestors: true } : {}),
      });
  }

  /** Where a path word points, relative to the line's start; undefined (and an ask) when that is not known now. */
  private place(
    word: Word,
    scope: Scope,
    opts: { base?: string | undefined },
    via: string,
    verb: string,
  ): string | undefined {
    if (word.value === undefined) {
      this.ctx.ask(`${via} ${verb} a path only known when it runs (${word.unknown ?? word.raw})`, word.raw);
      return undefined;
    }
    if (word.value === "") return undefined;
    let cwd = scope.cwd;
    if (opts.base !== undefined && opts.base !== ".") cwd = resolveFrom(opts.base, cwd);
    let resolved = resolveFrom(word.value, cwd);
    // /proc/self and /dev/fd are the shell's (or its child's, which shares them): not toolplane's
    const proc = resolved === undefined ? { kind: "plain" as const } : procPath(resolved);
    if (proc.kind === "unknown") {
      this.ctx.ask(`${via} ${verb} ${proc.why}`, word.raw);
      return undefined;
    }
    if (proc.kind === "descriptor") return verb === "reads" ? undefined : resolved;
    if (proc.kind === "moved") {
      const base = proc.base === "root" ? "/" : scope.cwd;
      resolved = base === undefined ? undefined : proc.rest === "" ? base : resolveFrom(proc.rest, base);
    }
    if (resolved === undefined) {
      this.ctx.ask(`${via} ${verb} ${word.value} in a directory only known when it runs`, word.raw);
      return undefined;
    }
    if (this.ctx.line.linked && !resolved.startsWith("/dev/")) {
      this.ctx.ask(
        `${via} ${verb} ${word.value} after an earlier command of the line may have made a symlink`,
        word.raw,
      );
      return undefined;
    }
    if (word.glob && this.ctx.line.dirty) {
      this.ctx.ask(
        `${via} ${verb} the glob ${word.raw} after an earlier command of the line may have changed the files`,
        word.raw,
      );
      return undefined;
    }
    return resolved;
  }
}
