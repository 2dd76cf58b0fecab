import path from "node:path";
import type { ShellAnalysis } from "./analysis.js";
import { expandBraces, GLOB_MAX_MATCHES } from "./expand.js";
import { type LineState, NO_LINKS, resolveFrom, type Scope } from "./scope.js";
import type { Word } from "./words.js";

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
    },
  ) {}

  /** An unquoted glob in an argument: bash puts file names there, and one that starts with `-` is an option. */
  /**
   * The words an argument becomes: braces expanded (textual, as bash does first), then each
   * piece with glob characters expanded to the file names it names now (left as written when it
   * names none). Asks where that cannot be known now: after an earlier command may have changed
   * the files, in a folder only the run knows, past the cap, or with quoting inside the glob.
   */
  expandArgument(w: Word, scope: Scope): Word[] {
    if (!w.glob || w.value === undefined) return [w];
    if (/['"\\]/.test(w.raw)) {
      this.ctx.ask(`the glob ${w.raw}, which mixes quoting into a pattern`, w.raw);
      return [w];
    }
    const pieces = expandBraces(w.value, GLOB_MAX_MATCHES);
    if (pieces === undefined) {
      this.ctx.ask(`the brace expansion ${w.raw}, which names over ${GLOB_MAX_MATCHES} words`, w.raw);
      return [w];
    }
    const out: Word[] = [];
    for (const piece of pieces) {
      if (!/[*?[]/.test(piece)) {
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
      const names = dir === undefined || this.ctx.glob === undefined ? undefined : this.ctx.glob(piece, dir);
      if (names === undefined) {
        this.ctx.ask(
          dir === undefined
            ? `the glob ${w.raw}, in a directory only known when it runs`
            : `the glob ${w.raw}, which names over ${GLOB_MAX_MATCHES} files`,
          w.raw,
        );
        return [w];
      }
      for (const n of names) out.push({ ...w, raw: n, value: n, glob: false });
    }
    return out;
  }

  readPath(
    word: Word,
    scope: Scope,
    opts: { subtree: boolean; base?: string | undefined; contents?: boolean; follows?: boolean },
    via: string,
  ): void {
    if (word.pipe) return;
    const where = this.place(word, scope, opts, via, "reads");
    if (where === undefined) return;
    if (/^\/dev\/(tcp|udp)\//.test(where)) this.ctx.ask(`a network connection through ${where}`, word.raw);
    else if (where !== "/dev/null")
      this.ctx.out.reads.push({
        path: where,
        subtree: opts.subtree,
        glob: word.glob,
        via,
        ...(opts.contents ? { contents: true } : {}),
        ...(opts.follows ? { follows: true } : {}),
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
    const resolved = resolveFrom(word.value, cwd);
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
