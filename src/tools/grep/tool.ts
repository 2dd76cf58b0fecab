import { defineTool } from "../../declare/index.js";
import type { ToolContext } from "../../declare/types.js";
import type { Progress, ProgressFactory } from "../../util/progress.js";
import { sortByPath } from "../search/order.js";
import { pageLimit, pastEnd } from "../search/page.js";
import { describeRgStart, MAX_FDS, RgStartError } from "../search/rg.js";
import { openSearchTarget, type SearchTarget } from "../search/target.js";
import { noneWithheld } from "../search/withheld.js";
import { FileToolError } from "../shared/errors.js";
import {
  configInt,
  GREP_LINE_MAX_BYTES,
  GREP_MAX_MATCHES,
  pageBudget,
  RAW_MAX_BYTES,
} from "../shared/limits.js";
import { type ToolPath, workspacePath } from "../shared/workspace-path.js";
import {
  type Counted,
  countAll,
  matchFlags,
  openBatch,
  type Plan,
  rawCapAdvice,
  type SearchContext,
  SILENT,
} from "./count.js";
import { ContentPage, FilesPage, type PageFile } from "./page.js";
import type { GrepArgs } from "./parameters.js";
import { absolute, readIntoPage } from "./read-matches.js";
import { footerReserve, renderGrep } from "./render.js";
import { grepOutput, grepParameters } from "./schema.gen.js";
import type { GrepValue } from "./value.js";

export type { GrepArgs } from "./parameters.js";
export { renderGrep } from "./render.js";
export type { GrepFile, GrepMatch, GrepValue } from "./value.js";

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
