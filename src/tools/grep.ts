import path from "node:path";
import { z } from "zod";
import { defineTool } from "../declare/index.js";
import type { ToolContext } from "../declare/types.js";
import { noProgress, type Progress, type ProgressFactory } from "../util/progress.js";
import { FileToolError } from "./errors.js";
import { globFilter } from "./glob-filter.js";
import { ContentPage, FilesPage, type PageFile } from "./grep-page.js";
import { absolute, type OpenedFile, openChecked, readIntoPage } from "./grep-read.js";
import { footerReserve, renderGrep } from "./grep-render.js";
import { GREP_MODES, type GrepMode, type GrepValue, grepOutput } from "./grep-value.js";
import {
  configInt,
  GREP_CONTEXT_MAX,
  GREP_LINE_MAX_BYTES,
  GREP_MAX_MATCHES,
  pageBudget,
  RAW_MAX_BYTES,
} from "./limits.js";
import { type RawPath, rawPath } from "./raw-path.js";
import { describeRgStart, fdName, MAX_FDS, RawCapError, RgStartError, runRg } from "./rg.js";
import { sortByPath } from "./search-order.js";
import { pageLimit, pastEnd } from "./search-page.js";
import { againOpen, openSearchTarget, type SearchTarget } from "./search-target.js";
import { noneWithheld, type Withheld } from "./withheld.js";
import { type PathContext, type ToolPath, workspacePath } from "./workspace-path.js";

export { renderGrep } from "./grep-render.js";
export type { GrepFile, GrepMatch, GrepValue } from "./grep-value.js";
export { grepOutput } from "./grep-value.js";

const contextLines = (side: string) =>
  z
    .number()
    .int()
    .min(0)
    .max(GREP_CONTEXT_MAX)
    .optional()
    .describe(`Lines to show ${side} each match (content mode)`);

// Parameter names: the ones Claude Code's Grep uses (output_mode, head_limit, offset, type,
// multiline, -A, -B, -C), which models are trained to send, in the snake_case grep already had
// (ignore_case, literal, kept as they were). See docs/tools.md.
export const grepParameters = z.object({
  pattern: z.string().min(1).describe("Regular expression (Rust regex syntax) to search file contents for"),
  path: z.string().min(1).optional().describe("File or folder to search in; default: the working directory"),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.rs"'),
  type: z
    .string()
    .min(1)
    .optional()
    .describe('Only search files of this ripgrep type, e.g. "js", "py", "rust", "go"'),
  output_mode: z
    .enum(GREP_MODES)
    .optional()
    .describe(
      '"files_with_matches" (default): the matching files; "content": the matching lines; "count": matching lines per file',
    ),
  "-A": contextLines("after"),
  "-B": contextLines("before"),
  "-C": contextLines("before and after"),
  ignore_case: z.boolean().optional().describe("Match letters of either case (default: case-sensitive)"),
  literal: z.boolean().optional().describe("Treat the pattern as plain text, not a regex"),
  multiline: z
    .boolean()
    .optional()
    .describe("Let matches span lines: . also matches newlines (rg -U --multiline-dotall)"),
  head_limit: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Most entries (files, lines or counts) per page; 0 or unset: as many as fit"),
  offset: z.number().int().min(0).optional().describe("Entries to skip: the offset a cut page ends with"),
});
export type GrepArgs = z.output<typeof grepParameters>;

export const GREP_DESCRIPTION =
  // Qualitative on purpose: the page size is run-time config (grep.maxMatches), so it is not here.
  "Search file contents with a regex (ripgrep). Lists matching files by default; output_mode " +
  '"content" shows matching lines, "count" counts per file. Sorted by path and paged: a cut page ' +
  "ends with the offset to continue from. Skips .gitignore'd files and .git. For file names use glob.";

export interface GrepOptions {
  /**
   * Told the running counts: matching lines and files so far (pass 1), then entries read (pass 2).
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
    annotations: { title: "Search", readOnlyHint: true, openWorldHint: false },
    display: { title: "Search", summarize: (a) => `grep ${JSON.stringify(a.pattern)} in ${a.path ?? "."}` },
  });
}

/** What grep needs of its context (the host's ToolContext, or less for a library caller). */
type SearchContext = PathContext & Pick<ToolContext, "config" | "signal">;

/** How one call searches and pages, from its arguments and the run-time config. */
interface Plan {
  mode: GrepMode;
  multiline: boolean;
  before: number;
  after: number;
  offset: number;
  limit: number;
  lineMax: number;
  rawMax: number;
  budget: number;
}

function planOf(args: GrepArgs, ctx: SearchContext): Plan {
  const mode = args.output_mode ?? "files_with_matches";
  const before = args["-B"] ?? args["-C"] ?? 0;
  const after = args["-A"] ?? args["-C"] ?? 0;
  if (mode !== "content" && (args["-A"] ?? args["-B"] ?? args["-C"]) !== undefined) {
    throw new FileToolError(
      `-A, -B and -C show lines around each match, so they need output_mode "content" (this call's is "${mode}")`,
    );
  }
  if (args.type !== undefined && !/^[\w.+-]+$/.test(args.type)) {
    throw new FileToolError(
      `invalid file type ${JSON.stringify(args.type)}: give a ripgrep type name such as js, py or rust`,
    );
  }
  return {
    mode,
    multiline: args.multiline === true,
    before,
    after,
    offset: args.offset ?? 0,
    limit: pageLimit(args.head_limit, configInt(ctx.config, "grep.maxMatches", GREP_MAX_MATCHES)),
    lineMax: configInt(ctx.config, "results.lineMaxChars", GREP_LINE_MAX_BYTES),
    rawMax: configInt(ctx.config, "results.rawMaxBytes", RAW_MAX_BYTES),
    budget: pageBudget(ctx.config),
  };
}

/** Options shared by both passes: what is searched and how the pattern matches. */
function matchFlags(args: GrepArgs): string[] {
  const flags = ["--hidden", "--glob=!.git", "--no-require-git"];
  flags.push(args.ignore_case ? "--ignore-case" : "--case-sensitive");
  if (args.literal) flags.push("--fixed-strings");
  if (args.multiline) flags.push("--multiline", "--multiline-dotall");
  flags.push(`--regexp=${args.pattern}`);
  return flags;
}

/** A file pass 1 counted matching lines (matches, with multiline) in. */
interface Counted {
  path: RawPath;
  count: number;
  /** The permission rules ask before it may be shown. */
  ask?: boolean;
}

/**
 * Two passes keep the result deterministic and paged without giving up rg's parallel walk:
 * 1. `rg --count` over the tree, in parallel: which files match and how many lines each. Its
 *    output is one short line per matching file, however many matches there are. Each file is
 *    then decided by the permission rules (ctx.paths): a denied one leaves the counts. Sorted by
 *    path, the counts number every entry (a matching line in content mode, a file otherwise), so
 *    a page's files are known before any file is read.
 * 2. Only the page's files are opened here, each checked where it really is (a folder swapped for
 *    a symlink since pass 1 must not lead out). In content mode rg reads those open files
 *    (`rg --json --sort path` over /dev/fd/NNN) and is stopped once the page is full: no path is
 *    opened twice, and nothing past the page is read.
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
  const plan = planOf(args, ctx);
  const target = workspacePath(args.path, ctx);
  const scope = await openSearchTarget(target, ctx, "grep");
  try {
    return await searchIn(target, scope, args, plan, ctx, bar);
  } catch (err) {
    if (err instanceof RgStartError) {
      throw describeRgStart(err, err.cwd === ctx.cwd ? `the working directory ${ctx.cwd}` : target.shown);
    }
    throw rawCapAdvice(err, args);
  } finally {
    if (scope.kind === "file") await scope.handle.close();
  }
}

async function searchIn(
  target: ToolPath,
  scope: SearchTarget,
  args: GrepArgs,
  plan: Plan,
  ctx: SearchContext,
  bar: Progress,
): Promise<GrepValue> {
  const withheld = noneWithheld();
  const counts = sortByPath(
    await countAll(target, scope, args, plan, ctx, bar, withheld),
    (c) => c.path.shown,
  );
  const content = plan.mode === "content";
  const weight = (c: Counted) => (content ? c.count : 1);
  const upper = Math.max(
    plan.offset + plan.limit,
    counts.reduce((n, c) => n + c.count, 0),
    counts.length,
  );
  const budget =
    plan.budget -
    footerReserve(
      {
        mode: plan.mode,
        unit: plan.multiline ? "matches" : "lines",
        offset: 0,
        totalEntries: 0,
        totalMatches: 0,
        filesWithMatches: 0,
      },
      upper,
    );
  const options = { offset: plan.offset, limit: plan.limit, budget, lineMax: plan.lineMax };
  const page = content
    ? new ContentPage({ ...options, before: plan.before, after: plan.after })
    : new FilesPage(options, plan.mode);

  const pageEnd = plan.offset + plan.limit;
  const kept: Counted[] = [];
  const lost = { files: 0, matches: 0 };
  let next = 0;
  let index = 0;
  while (next < counts.length && index < pageEnd && !page.full) {
    // the files, in path order, whose entries reach what the page still covers; an ask-file is
    // put to the approver (one at a time, in path order) only where the page has reached it, and
    // counts only once approved, so what an unapproved file holds never moves an offset
    const batch: PageFile[] = [];
    while (next < counts.length && index < pageEnd && batch.length < MAX_FDS) {
      const c = counts[next]!;
      if (c.ask && batch.length > 0) break;
      next++;
      if (c.ask && !(await ctx.paths!.approve(absolute(c.path, ctx.cwd)))) {
        withheld.unapproved++;
        continue;
      }
      kept.push(c);
      const w = weight(c);
      if (index + w > plan.offset) batch.push({ path: c.path, start: index, count: c.count });
      index += w;
    }
    if (batch.length === 0) continue;
    const opened = await openBatch(batch, scope, target, ctx, withheld, lost);
    try {
      if (page instanceof ContentPage) {
        if (opened.length > 0) {
          await readIntoPage(
            opened.map((o) => ({ file: o.file, fd: o.handle.fd })),
            page,
            {
              matchArgs: matchFlags(args),
              before: plan.before,
              after: plan.after,
              multiline: plan.multiline,
              cwd: ctx.cwd,
              rawMax: plan.rawMax,
              signal: ctx.signal,
            },
          );
        }
      } else {
        for (const o of opened) page.add(o.file.path, o.file.count, o.file.start);
      }
    } finally {
      await Promise.all(opened.filter((b) => b.owned).map((b) => b.handle.close()));
    }
    const shown = page instanceof ContentPage ? page.matches.length : page.files.length;
    bar.update(shown, Math.min(plan.limit, index - plan.offset), content ? "matches read" : "files checked");
  }
  // files past the page: counted when allowed; ask-files past it were never asked: withheld
  for (const c of counts.slice(next)) {
    if (c.ask) withheld.unapproved++;
    else kept.push(c);
  }
  const indexTotal = kept.reduce((n, c) => n + weight(c), 0);
  if (plan.offset > 0 && plan.offset >= indexTotal && indexTotal > 0) {
    throw pastEnd(
      plan.offset,
      indexTotal,
      content ? (plan.multiline ? "matches" : "matching lines") : "files",
    );
  }
  const end = Math.min(page.next ?? pageEnd, indexTotal);
  const totalMatches = kept.reduce((n, c) => n + c.count, 0) - lost.matches;
  const filesWithMatches = kept.length - lost.files;
  const value: GrepValue = {
    pattern: args.pattern,
    mode: plan.mode,
    unit: plan.multiline ? "matches" : "lines",
    ...(page instanceof ContentPage ? { matches: page.matches } : { files: page.files }),
    ...(content && plan.before + plan.after > 0
      ? { context: { before: plan.before, after: plan.after } }
      : {}),
    offset: plan.offset,
    end: Math.max(end, plan.offset),
    totalEntries: content ? totalMatches : filesWithMatches,
    totalMatches,
    filesWithMatches,
  };
  if (end < indexTotal) value.nextOffset = end;
  if (withheld.denied + withheld.unapproved > 0) value.withheld = withheld;
  return value;
}

/** Pass 1: the files that match and their counts, less those the permission rules deny. */
async function countAll(
  target: ToolPath,
  scope: SearchTarget,
  args: GrepArgs,
  plan: Plan,
  ctx: SearchContext,
  bar: Progress,
  withheld: Withheld,
): Promise<Counted[]> {
  const flags = [plan.multiline ? "--count-matches" : "--count", "--with-filename", "--null"];
  if (scope.kind === "file") {
    // one file, already open and checked: rg reads that descriptor, for the count too
    const file = rawPath(Buffer.from(target.shown));
    const found = await countMatches([...flags, ...matchFlags(args), "--", fdName(0)], ctx, plan, args, bar, [
      scope.handle.fd,
    ]);
    return found.map((c) => ({ path: file, count: c.count }));
  }
  const rel = path.relative(ctx.cwd, target.real);
  const searchArg = rel === "" ? "." : rel.startsWith("..") || path.isAbsolute(rel) ? target.real : rel;
  // a type narrows like a name glob does (an rg type), and two types would be either-or: with a
  // type, the glob filters as an ignore file instead, so the two narrow together
  const filter = await globFilter(args.glob, { typed: args.type !== undefined });
  const type = args.type === undefined ? [] : [`--type=${args.type}`];
  try {
    const found = await countMatches(
      [...flags, ...type, ...filter.args, ...matchFlags(args), "--", searchArg],
      ctx,
      plan,
      args,
      bar,
    );
    return permitted(found, ctx, withheld);
  } finally {
    await filter.dispose();
  }
}

interface OpenedEntry {
  file: PageFile;
  handle: OpenedFile;
  /** Opened for this batch (closed after it), not the search's own open file. */
  owned: boolean;
}

/**
 * Opens a batch's files side by side; a file gone or withheld leaves its entries out (the page
 * shows fewer, and the next offset still follows the first pass's order), and its count leaves
 * the totals.
 */
async function openBatch(
  batch: readonly PageFile[],
  scope: SearchTarget,
  target: ToolPath,
  ctx: SearchContext,
  withheld: Withheld,
  lost: { files: number; matches: number },
): Promise<OpenedEntry[]> {
  if (scope.kind === "file") {
    const out: OpenedEntry[] = [];
    for (const file of batch) out.push({ file, ...(await againOpen(scope, target, ctx)) });
    return out;
  }
  const opened = await Promise.allSettled(batch.map((f) => openChecked(f.path, ctx)));
  const out: OpenedEntry[] = [];
  let failure: unknown;
  opened.forEach((o, i) => {
    const file = batch[i]!;
    if (o.status === "rejected") failure ??= o.reason;
    else if (o.value === undefined || o.value === "withheld") {
      if (o.value === "withheld") withheld.denied++;
      lost.files++;
      lost.matches += file.count;
    } else out.push({ file, handle: o.value, owned: true });
  });
  if (failure !== undefined) {
    await Promise.all(out.map((o) => o.handle.close()));
    throw failure;
  }
  return out;
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

async function countMatches(
  rgArgs: string[],
  ctx: SearchContext,
  plan: Plan,
  args: GrepArgs,
  bar: Progress,
  fds: readonly number[] = [],
): Promise<Counted[]> {
  const run = runRg(rgArgs, ctx.cwd, plan.rawMax, ctx.signal, fds);
  const out: Counted[] = [];
  const unit = plan.multiline ? "matches" : "matching lines";
  let lines = 0;
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
    if (bar !== SILENT)
      bar.update(lines, undefined, `${unit} in ${out.length} file${out.length === 1 ? "" : "s"}`);
  }
  const { code, stderr } = await run.done;
  if (ctx.signal?.aborted) throw new FileToolError("the search was aborted");
  if (code === 2 && out.length === 0) throw rgFailure(stderr, args);
  return out;
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
  if (/unrecognized file type/i.test(text)) {
    return new FileToolError(
      `unknown file type ${JSON.stringify(args.type)}: give a ripgrep type name (js, ts, py, rust, go, java, ...) or use glob`,
    );
  }
  if (/the literal .* is not allowed in a regex|multiline/i.test(text)) {
    return new FileToolError(
      `${text
        .split("\n")
        .find((l) => l.trim() !== "")
        ?.trim()}: pass multiline: true to match across lines`,
    );
  }
  if (/glob/i.test(text))
    return new FileToolError(`invalid glob ${JSON.stringify(args.glob)}: ${text.split("\n")[0]}`);
  return new FileToolError(`search failed: ${text.split("\n")[0] || "ripgrep exited with an error"}`);
}
