import { closeSync, constants, fstatSync, openSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { defineTool } from "../declare/index.js";
import type { RenderedOutput, ToolContext } from "../declare/types.js";
import { noProgress, type Progress, type ProgressFactory } from "../util/progress.js";
import { FileToolError } from "./errors.js";
import { globFilter } from "./glob-filter.js";
import { configInt, GREP_LINE_MAX_BYTES, GREP_MAX_MATCHES, RAW_MAX_BYTES } from "./limits.js";
import { cutToFit, lineCutMarker, lineCutMarkerMax } from "./line-cut.js";
import { openedAllowed } from "./opened-path.js";
import { NOT_UTF8_NOTE, type RawPath, rawPath } from "./raw-path.js";
import { describeRgStart, fdName, MAX_FDS, RawCapError, RgStartError, runRg } from "./rg.js";
import { comparePaths } from "./search-order.js";
import { againOpen, openSearchTarget, type SearchTarget } from "./search-target.js";
import { noneWithheld, type Withheld, withheldNote, withheldSchema } from "./withheld.js";
import { type PathContext, type ToolPath, workspacePath } from "./workspace-path.js";

export const grepParameters = z.object({
  pattern: z.string().min(1).describe("Regular expression (Rust regex syntax) to search file contents for"),
  path: z.string().min(1).optional().describe("File or folder to search in; default: the working directory"),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.rs"'),
  ignore_case: z.boolean().optional().describe("Match letters of either case (default: case-sensitive)"),
  literal: z.boolean().optional().describe("Treat the pattern as plain text, not a regex"),
});
export type GrepArgs = z.output<typeof grepParameters>;

const grepMatch = z.object({
  /** The path; a name that is not UTF-8 is shown with \xHH escapes (src/tools/raw-path.ts). */
  path: z.string(),
  /** Only for a path that is not UTF-8: its bytes, base64 (as rg --json gives them). */
  pathBytes: z.string().optional(),
  line: z.number().int(),
  text: z.string(),
  cut: z.boolean().optional(),
});
export const grepOutput = z.object({
  pattern: z.string(),
  matches: z.array(grepMatch),
  /** Matching lines in all files searched (rg's counts), even when only the first ones are returned. */
  totalMatches: z.number().int(),
  filesWithMatches: z.number().int(),
  /** True when matches past the cap were left out. */
  capped: z.boolean(),
  cap: z.number().int(),
  /** Only when matching files were left out by the permission rules: how many, never which. */
  withheld: withheldSchema.optional(),
});
export type GrepValue = z.output<typeof grepOutput>;
export type GrepMatch = z.output<typeof grepMatch>;

export const GREP_DESCRIPTION =
  "Search file contents with a regular expression (ripgrep). Returns matching lines with paths " +
  // The match cap is run-time config (grep.maxMatches), so the description only says there is one.
  "and line numbers, sorted by path then line, up to a match cap that the result reports. " +
  "Skips .gitignore'd files and .git. " +
  "Not for finding files by name: use glob.";

export interface GrepOptions {
  /**
   * Told the running counts: matching lines and files so far (pass 1), then matches read (pass 2).
   * For people (a CLI draws it on a terminal's stderr); never part of the result.
   */
  progress?: Progress;
}

const SILENT: Progress = noProgress("");

export function grepTool(options: { progress?: ProgressFactory } = {}) {
  const { progress } = options;
  return defineTool({
    name: "grep",
    description: GREP_DESCRIPTION,
    parameters: grepParameters,
    output: { schema: grepOutput, render: renderGrep },
    execute: (args: GrepArgs, ctx: ToolContext) =>
      grep(args, ctx, progress ? { progress: progress("grep") } : {}),
    concurrencySafe: true,
    permission: { action: "search", patterns: (a) => [a.path ?? "."], paths: (a) => [a.path ?? "."] },
    display: { title: "Search", summarize: (a) => `grep ${JSON.stringify(a.pattern)} in ${a.path ?? "."}` },
  });
}

/** What grep needs of its context (the host's ToolContext, or less for a library caller). */
type SearchContext = PathContext & Pick<ToolContext, "config" | "signal">;

/** Options shared by both passes: what is searched and how the pattern matches. */
function matchFlags(args: GrepArgs): string[] {
  const flags = ["--hidden", "--glob=!.git", "--no-require-git"];
  flags.push(args.ignore_case ? "--ignore-case" : "--case-sensitive");
  if (args.literal) flags.push("--fixed-strings");
  return flags;
}

/** A file pass 1 counted matching lines in. */
interface Counted {
  path: RawPath;
  count: number;
  /** The permission rules ask before it may be shown. */
  ask?: boolean;
}

/**
 * Two passes keep the result deterministic without giving up rg's parallel walk:
 * 1. `rg --count` over the tree, in parallel: which files match and how many lines each. Its
 *    output is one short line per matching file, however many matches there are. Each file is
 *    then decided by the permission rules (ctx.paths): a denied one leaves the counts.
 * 2. `rg --json --sort path` over just the first files, in path order, that hold the cap's worth
 *    of matches; reading stops at the cap and rg is killed. Each file is opened here first and
 *    checked where it really is (a folder swapped for a symlink since pass 1 must not lead out),
 *    and rg reads the open file: no path is opened twice.
 * A single `rg --sort path --json` pass would also be deterministic, but sorting makes rg walk on
 * one thread: 1.3x to 1.8x slower than raw rg on a tree with few matches (docs/tools.md).
 */
export async function grep(
  args: GrepArgs,
  ctx: SearchContext,
  options: GrepOptions = {},
): Promise<GrepValue> {
  const bar = options.progress ?? SILENT;
  try {
    return await search(args, ctx, bar);
  } finally {
    bar.done();
  }
}

async function search(args: GrepArgs, ctx: SearchContext, bar: Progress): Promise<GrepValue> {
  const target = workspacePath(args.path, ctx);
  const scope = await openSearchTarget(target, ctx, "grep");
  try {
    return await searchIn(target, scope, args, ctx, bar);
  } catch (err) {
    if (err instanceof RgStartError) {
      throw describeRgStart(err, err.cwd === ctx.cwd ? `the working directory ${ctx.cwd}` : target.shown);
    }
    throw err;
  } finally {
    if (scope.kind === "file") await scope.handle.close();
  }
}

async function searchIn(
  target: ToolPath,
  scope: SearchTarget,
  args: GrepArgs,
  ctx: SearchContext,
  bar: Progress,
): Promise<GrepValue> {
  const cap = configInt(ctx.config, "grep.maxMatches", GREP_MAX_MATCHES);
  const lineMax = configInt(ctx.config, "results.lineMaxChars", GREP_LINE_MAX_BYTES);
  const rawMax = configInt(ctx.config, "results.rawMaxBytes", RAW_MAX_BYTES);
  const withheld = noneWithheld();

  let counts: Counted[];
  if (scope.kind === "file") {
    // one file, already open and checked: rg reads that descriptor, for the count too
    const file = rawPath(Buffer.from(target.shown));
    const found = await countMatches([...countFlags(args), "--", fdName(0)], ctx, rawMax, args, bar, [
      scope.handle.fd,
    ]);
    counts = found.map((c) => ({ path: file, count: c.count }));
  } else {
    const rel = path.relative(ctx.cwd, target.real);
    const searchArg = rel === "" ? "." : rel.startsWith("..") || path.isAbsolute(rel) ? target.real : rel;
    const filter = await globFilter(args.glob);
    try {
      counts = await countMatches(
        [...countFlags(args), ...filter.args, "--", searchArg],
        ctx,
        rawMax,
        args,
        bar,
      );
    } finally {
      await filter.dispose();
    }
    counts = permitted(counts, ctx, withheld);
  }
  counts.sort((a, b) => comparePaths(a.path.shown, b.path.shown));

  const matches: GrepMatch[] = [];
  const wanted = Math.min(cap, total(counts));
  const searched: Counted[] = [];
  let next = 0;
  while (matches.length < cap && next < counts.length) {
    // the fewest files, in path order, whose counts reach what the cap still needs
    const picked: Counted[] = [];
    let expected = 0;
    while (next < counts.length && matches.length + expected < cap && picked.length < MAX_FDS) {
      const file = counts[next++]!;
      // asks go to the approver one at a time, in path order, only for files about to be shown
      if (file.ask && !(await ctx.paths!.approve(absolute(file.path, ctx.cwd)))) {
        withheld.unapproved++;
        continue;
      }
      picked.push(file);
      expected += file.count;
    }
    const batch: Opened[] = [];
    try {
      if (scope.kind === "file") {
        for (const file of picked) batch.push({ file, ...(await againOpen(scope, target, ctx)) });
      } else {
        // opened side by side; a file gone or withheld leaves its count out, and the next batch
        // makes up for it
        const opened = await Promise.allSettled(picked.map((file) => openChecked(file, ctx)));
        let failure: unknown;
        opened.forEach((o, i) => {
          if (o.status === "rejected") failure ??= o.reason;
          else if (o.value === "withheld") withheld.denied++;
          else if (o.value !== undefined) batch.push({ file: picked[i]!, handle: o.value, owned: true });
        });
        if (failure !== undefined) throw failure;
      }
      searched.push(...batch.map((b) => b.file));
      if (batch.length > 0) await collectMatches(batch, args, ctx, cap, lineMax, rawMax, matches);
    } finally {
      await Promise.all(batch.filter((b) => b.owned).map((b) => b.handle.close()));
    }
    bar.update(matches.length, wanted, "matches read");
  }
  // ask-files past the last file searched were never put to the approver: they stay withheld
  const rest = counts.slice(next);
  withheld.unapproved += rest.filter((c) => c.ask).length;
  const kept = [...searched, ...rest.filter((c) => !c.ask)];
  matches.sort((a, b) => comparePaths(a.path, b.path) || a.line - b.line);
  const shown = matches.slice(0, cap);
  const totalMatches = total(kept);
  const value: GrepValue = {
    pattern: args.pattern,
    matches: shown,
    totalMatches: Math.max(totalMatches, shown.length),
    filesWithMatches: kept.length,
    capped: totalMatches > shown.length,
    cap,
  };
  if (withheld.denied + withheld.unapproved > 0) value.withheld = withheld;
  return value;
}

interface Opened {
  file: Counted;
  handle: { readonly fd: number; close(): Promise<void> };
  /** Opened for this batch (closed after it), not the search's own open file. */
  owned: boolean;
}

const total = (counts: readonly Counted[]) => counts.reduce((n, c) => n + c.count, 0);

function countFlags(args: GrepArgs): string[] {
  return ["--count", "--with-filename", "--null", ...matchFlags(args), `--regexp=${args.pattern}`];
}

/** The counted files the permission rules let a result show (ask-files marked); the rest withheld. */
function permitted(counts: Counted[], ctx: SearchContext, withheld: Withheld): Counted[] {
  if (!ctx.paths) return counts;
  // rg's walk follows no symlink and starts at a real folder: each path it reports is real
  const verdicts = ctx.paths.check(
    counts.map((c) => absolute(c.path, ctx.cwd)),
    { real: true },
  );
  const out: Counted[] = [];
  counts.forEach((c, i) => {
    if (verdicts[i] === "deny") withheld.denied++;
    else out.push(verdicts[i] === "ask" ? { ...c, ask: true } : c);
  });
  return out;
}

/** A counted path as an absolute path string (for a name that is not UTF-8, approximately). */
function absolute(p: RawPath, cwd: string): string {
  return path.resolve(cwd, p.bytes.toString("utf8"));
}

/**
 * Opens one counted file for pass 2: it must be a regular file that really is inside the boundary
 * and allowed, once open. "withheld" when it may not be shown; undefined when it is gone.
 */
async function openChecked(
  file: Counted,
  ctx: SearchContext,
): Promise<Opened["handle"] | "withheld" | undefined> {
  const fd = openRaw(file.path.bytes, ctx.cwd);
  if (fd === undefined) return undefined; // gone since the count: rg would skip it the same way
  const full = absolute(file.path, ctx.cwd);
  let ok = false;
  try {
    ok = fstatSync(fd).isFile() && (await openedAllowed({ fd }, { real: full, shown: full }, ctx));
  } finally {
    if (!ok) closeSync(fd);
  }
  return ok ? { fd, close: async () => closeSync(fd) } : "withheld";
}

const DOT_SLASH = Buffer.from("./");

/** rg prints paths under "." with a leading "./": the result shows them relative, without it. */
const tidy = (p: RawPath): RawPath =>
  p.bytes.subarray(0, 2).equals(DOT_SLASH) ? rawPath(p.bytes.subarray(2)) : p;

/**
 * A match as the result keeps it. Its rendered row (`N: text`) fits results.lineMaxChars, and the
 * text is at most 2,000 bytes, so the host never cuts it again: a longer line is cut here, once,
 * and its marker gives the true remainder.
 */
function toMatch(file: RawPath, line: number, raw: string, lineMax: number): GrepMatch {
  const p = tidy(file);
  const prefix = `${line}: `.length;
  let text = raw;
  let cut = false;
  const bytes = Buffer.byteLength(raw);
  if (prefix + raw.length > lineMax || bytes > GREP_LINE_MAX_BYTES) {
    const widest = lineCutMarkerMax(bytes);
    const shown = cutToFit(
      raw,
      lineMax - prefix - widest.length,
      GREP_LINE_MAX_BYTES - Buffer.byteLength(widest),
    );
    text = shown + lineCutMarker(bytes - Buffer.byteLength(shown), bytes);
    cut = true;
  }
  const m: GrepMatch = { path: p.shown, line, text };
  if (cut) m.cut = true;
  if (!p.utf8) m.pathBytes = p.bytes.toString("base64");
  return m;
}

async function countMatches(
  rgArgs: string[],
  ctx: SearchContext,
  rawMax: number,
  args: GrepArgs,
  bar: Progress,
  fds: readonly number[] = [],
): Promise<Counted[]> {
  const run = runRg(rgArgs, ctx.cwd, rawMax, ctx.signal, fds);
  const out: Counted[] = [];
  let lines = 0;
  try {
    for await (const line of run.lines()) {
      const nul = line.indexOf(0);
      if (nul < 0) continue;
      out.push({
        // raw bytes: a name that is not UTF-8 must reach the second pass unchanged
        path: rawPath(Buffer.from(line.subarray(0, nul))),
        count: Number(line.subarray(nul + 1).toString("latin1")),
      });
      lines += out[out.length - 1]!.count;
      // rg --count names only files that match, so those are what can be counted while it runs
      bar.update(lines, undefined, `matching lines in ${out.length} file${out.length === 1 ? "" : "s"}`);
    }
  } catch (err) {
    throw rawCapAdvice(err, args);
  }
  const { code, stderr } = await run.done;
  if (ctx.signal?.aborted) throw new FileToolError("the search was aborted");
  if (code === 2 && out.length === 0) throw rgFailure(stderr, args);
  return out;
}

/**
 * Pass 2 over open files: rg inherits them as fds and reads /dev/fd/NNN in the order given (the
 * three-digit names sort that way), so the first matches by path are the ones kept at the cap. rg
 * is also stopped once every file has given the matches it was counted for: given a file by
 * name, rg does not stop at binary data and would read on through a 100 GiB sparse tail.
 */
async function collectMatches(
  batch: readonly Opened[],
  args: GrepArgs,
  ctx: SearchContext,
  cap: number,
  lineMax: number,
  rawMax: number,
  into: GrepMatch[],
): Promise<void> {
  const byArg = new Map<string, number>(batch.map((_, i) => [fdName(i), i]));
  const owed = batch.map((b) => b.file.count);
  let unpaid = batch.length;
  const rgArgs = [
    "--json",
    "--sort=path",
    ...matchFlags(args),
    `--regexp=${args.pattern}`,
    "--",
    ...batch.map((_, i) => fdName(i)),
  ];
  const run = runRg(
    rgArgs,
    ctx.cwd,
    rawMax,
    ctx.signal,
    batch.map((b) => b.handle.fd),
  );
  try {
    for await (const line of run.lines()) {
      // only match records are parsed; begin/end/summary records are skipped unread
      if (line[9] !== 109 || !line.subarray(0, MATCH_PREFIX.length).equals(MATCH_PREFIX)) continue;
      const msg = JSON.parse(line.toString("utf8")) as RgMatch;
      const i = byArg.get(msg.data.path.text ?? "");
      if (i === undefined) continue;
      const raw = msg.data.lines.text ?? Buffer.from(msg.data.lines.bytes ?? "", "base64").toString("utf8");
      into.push(toMatch(batch[i]!.file.path, msg.data.line_number, raw.replace(/\r?\n$/, ""), lineMax));
      owed[i]!--;
      if (owed[i] === 0) unpaid--;
      if (into.length >= cap || unpaid === 0) break;
    }
  } catch (err) {
    throw rawCapAdvice(err, args);
  } finally {
    run.stop();
  }
  await run.done;
}

/**
 * Opens a file named by raw bytes, relative to `cwd`; undefined when it is no longer there.
 * Synchronous: pass 2 opens up to a cap's worth of files, and an open that cannot wait (see the
 * flags) costs microseconds, where a thread-pool round trip each cost a third of a millisecond.
 */
function openRaw(bytes: Buffer, cwd: string): number | undefined {
  const full = bytes[0] === 0x2f ? bytes : Buffer.concat([Buffer.from(`${cwd}${path.sep}`), bytes]);
  try {
    // O_NONBLOCK: a FIFO put there since the count must not hang the search; O_NOFOLLOW: nor may
    // a symlink put in the file's place (a folder swapped on the way is caught once it is open)
    return openSync(full, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
}

const MATCH_PREFIX = Buffer.from('{"type":"match",');

interface RgMatch {
  data: {
    path: { text?: string; bytes?: string };
    lines: { text?: string; bytes?: string };
    line_number: number;
  };
}

function rawCapAdvice(err: unknown, args: GrepArgs): unknown {
  if (!(err instanceof RawCapError)) return err;
  return new FileToolError(
    `the search for ${JSON.stringify(args.pattern)} produced over ${err.limit} bytes of output, so it was stopped unread: ` +
      "narrow it with a more specific pattern, a path, or a glob",
  );
}

function rgFailure(stderr: string, args: GrepArgs): FileToolError {
  const text = stderr.trim();
  if (/regex parse error|error parsing regex|unclosed|unopened|repetition/i.test(text)) {
    const line = text.split("\n").find((l) => /^\s*error:/.test(l)) ?? text;
    const detail = line.replace(/^[\s^~]*error:\s*/, "").trim();
    return new FileToolError(
      `invalid regex ${JSON.stringify(args.pattern)}: ${detail}. Escape special characters, or pass literal: true to search for plain text`,
    );
  }
  if (/glob/i.test(text))
    return new FileToolError(`invalid glob ${JSON.stringify(args.glob)}: ${text.split("\n")[0]}`);
  return new FileToolError(`search failed: ${text.split("\n")[0] || "ripgrep exited with an error"}`);
}

/** Matches grouped under their path, `line: text`, then a line saying what was left out. */
export function renderGrep(value: GrepValue): RenderedOutput {
  const note = withheldNote(value.withheld);
  if (value.matches.length === 0) {
    const none = `No matches for ${JSON.stringify(value.pattern)}.`;
    return note ? `${none}\n${note}` : none;
  }
  const out: string[] = [];
  let current: string | undefined;
  for (const m of value.matches) {
    if (m.path !== current) {
      if (current !== undefined) out.push("");
      out.push(m.pathBytes === undefined ? m.path : `${m.path}${NOT_UTF8_NOTE}`);
      current = m.path;
    }
    out.push(`${m.line}: ${m.text}`);
  }
  out.push("");
  if (value.capped) {
    out.push(
      `(first ${value.matches.length} of ${value.totalMatches} matching lines in ${value.filesWithMatches} files, by path; ` +
        "narrow with path, glob or a more specific pattern to see the rest)",
    );
  } else {
    out.push(`(${value.matches.length} matching lines in ${value.filesWithMatches} files)`);
  }
  if (note) out.push(note);
  const text = out.join("\n");
  return value.capped ? { content: [{ type: "text", text }], truncated: true } : text;
}
