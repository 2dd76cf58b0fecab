import { lstatSync } from "node:fs";
import path from "node:path";
import { defineTool } from "../../declare/index.js";
import type { RenderedOutput, ToolContext } from "../../declare/types.js";
import { globFilter } from "../search/glob-filter.js";
import { comparePaths } from "../search/order.js";
import { continueHint, pastEnd, rangeOf } from "../search/page.js";
import { describeRgStart, RgStartError, runRg } from "../search/rg.js";
import { openSearchTarget } from "../search/target.js";
import { noneWithheld, type Withheld, withheldNote } from "../search/withheld.js";
import { FileToolError } from "../shared/errors.js";
import { GLOB_MAX_PAGE, GLOB_MAX_RESULTS, pageBudget } from "../shared/limits.js";
import { NOT_UTF8_NOTE, type RawPath, rawPath } from "../shared/raw-path.js";
import { type PathContext, workspacePath } from "../shared/workspace-path.js";
import { globOutput, globParameters } from "./schema.gen.js";
import type { GlobArgs, GlobValue } from "./schema.js";
import { TopK } from "./top-k.js";

export type { GlobArgs, GlobValue } from "./schema.js";

export const GLOB_DESCRIPTION =
  "Find files by name with a glob pattern. Returns paths newest first (by modification time), " +
  "paged: a cut page ends with the offset to continue from. Skips .gitignore'd files and .git. " +
  "Not for searching file contents: use grep.";

export function globTool() {
  return defineTool({
    name: "glob",
    description: GLOB_DESCRIPTION,
    parameters: globParameters,
    output: { schema: globOutput, render: renderGlob },
    execute: (args: GlobArgs, ctx: ToolContext) => glob(args, ctx),
    concurrencySafe: true,
    permission: { action: "search", patterns: (a) => [a.path ?? "."], paths: (a) => [a.path ?? "."] },
    annotations: { title: "Find files", readOnlyHint: true, openWorldHint: false },
    display: { title: "Find files", summarize: (a) => `glob ${a.pattern} in ${a.path ?? "."}` },
  });
}

/** A listed file as the walk found it, with what orders it. */
interface Found {
  mtime: number;
  /** The path as the result shows it (and orders ties by). */
  shown: string;
  raw: RawPath;
  /** The permission rules ask before it may be listed. */
  ask: boolean;
}

/** Newest first; the same modification time by path, so the order never depends on the walk. */
const newestFirst = (a: Found, b: Found) => b.mtime - a.mtime || comparePaths(a.shown, b.shown);

/**
 * `rg --files` walks in parallel, and each file is stat'ed for its modification time as it streams
 * past. Only the first offset + limit files in the result's order are held (a bounded heap, see
 * TopK); the rest are counted. Each file is decided by the permission rules before it is kept or
 * counted (ctx.paths, from the host): a denied name is left out; an ask-file keeps its place in
 * the order, and is listed only when approved (asked for the files on the page only, so a later
 * page never asks again about an earlier one), else its place stays empty; both are counted as
 * withheld.
 */
export async function glob(
  args: GlobArgs,
  ctx: PathContext & Pick<ToolContext, "config" | "signal">,
): Promise<GlobValue> {
  const target = workspacePath(args.path, ctx);
  await openSearchTarget(target, ctx, "glob");
  const filter = await globFilter(args.pattern);
  const offset = args.offset ?? 0;
  const limit = args.head_limit ? Math.min(args.head_limit, GLOB_MAX_PAGE) : GLOB_MAX_RESULTS;
  const withheld = noneWithheld();
  const prefix = path.relative(ctx.cwd, target.real);
  const outside = prefix.startsWith("..") || path.isAbsolute(prefix);
  const base = outside ? target.real : prefix;
  const root = Buffer.from(`${target.real}${path.sep}`);
  const top = new TopK<Found>(offset + limit, newestFirst);
  let result: { code: number | null; stderr: string };
  try {
    const run = runRg(
      ["--files", "--hidden", "--glob=!.git", "--no-require-git", ...filter.args, "--", "."],
      target.real,
      // only the kept paths are held; the rest are counted as they stream past
      Number.MAX_SAFE_INTEGER,
      ctx.signal,
    );
    for await (const line of run.lines()) {
      const raw = rawPath(
        line.subarray(0, 2).equals(DOT_SLASH) ? Buffer.from(line.subarray(2)) : Buffer.from(line),
      );
      let ask = false;
      if (ctx.paths) {
        const full = path.join(target.real, raw.bytes.toString("utf8"));
        // rg's walk follows no symlink and starts at a real folder: the path it reports is real
        const [verdict] = ctx.paths.check([full], { real: true });
        if (verdict === "deny") {
          withheld.denied++;
          continue;
        }
        ask = verdict === "ask";
      }
      // synchronous: one stat of a name the walk just listed costs microseconds, a thread-pool
      // round trip more than that; rg's next chunk of names is read between two chunks of stats
      const st = lstatSync(Buffer.concat([root, raw.bytes]), { throwIfNoEntry: false });
      if (st === undefined) continue; // gone since the walk listed it
      top.offer({ mtime: st.mtimeMs, shown: base === "" ? raw.shown : path.join(base, raw.shown), raw, ask });
    }
    result = await run.done;
  } catch (err) {
    if (err instanceof RgStartError) throw describeRgStart(err, target.shown);
    throw err;
  } finally {
    await filter.dispose();
  }
  const { code, stderr } = result;
  if (ctx.signal?.aborted) throw new FileToolError("the search was aborted");
  if (code === 2 && top.seen === 0) {
    const first = stderr.trim().split("\n")[0] ?? "";
    throw new FileToolError(
      /glob|type/i.test(stderr)
        ? `invalid glob ${JSON.stringify(args.pattern)}: ${first}`
        : `file search failed: ${first || "ripgrep exited with an error"}`,
    );
  }
  const total = top.seen;
  if (offset > 0 && offset >= total && total > 0) throw pastEnd(offset, total, "files");
  return await pageOf(
    args.pattern,
    top.sorted().slice(offset),
    { offset, total, base, real: target.real },
    ctx,
    withheld,
  );
}

/** The page: the kept files from the offset on, approved where they ask, within the byte budget. */
async function pageOf(
  pattern: string,
  candidates: readonly Found[],
  at: { offset: number; total: number; base: string; real: string },
  ctx: PathContext & Pick<ToolContext, "config">,
  withheld: Withheld,
): Promise<GlobValue> {
  const room = pageBudget(ctx.config) - footerReserve(at.offset + candidates.length + at.total);
  const files: string[] = [];
  const pathBytes: Record<string, string> = {};
  let used = 0;
  let end = at.offset;
  for (const f of candidates) {
    const row = f.raw.utf8 ? f.shown : `${f.shown}${NOT_UTF8_NOTE}`;
    const cost = Buffer.byteLength(row) + 1;
    if (used + cost > room && end > at.offset) break;
    end++;
    // an ask is put only for a file this page lists, one at a time, in the page's order
    if (f.ask && !(await ctx.paths!.approve(path.join(at.real, f.raw.bytes.toString("utf8"))))) {
      withheld.unapproved++;
      continue;
    }
    used += cost;
    files.push(f.shown);
    if (!f.raw.utf8) {
      const dir = at.base === "" ? "" : `${at.base}/`;
      pathBytes[f.shown] = Buffer.concat([Buffer.from(dir), f.raw.bytes]).toString("base64");
    }
  }
  const value: GlobValue = { pattern, files, offset: at.offset, total: at.total, more: at.total - end };
  if (end < at.total) value.nextOffset = end;
  if (Object.keys(pathBytes).length > 0) value.pathBytes = pathBytes;
  if (withheld.denied + withheld.unapproved > 0) value.withheld = withheld;
  return value;
}

const DOT_SLASH = Buffer.from("./");

function footerOf(
  v: Pick<GlobValue, "offset" | "total" | "nextOffset" | "files" | "more">,
): string | undefined {
  if (v.offset === 0 && v.nextOffset === undefined) return undefined;
  const end = v.total - v.more;
  const hint = v.nextOffset === undefined ? "" : `; ${v.more} more: ${continueHint("glob", v.nextOffset)}`;
  return `(files ${rangeOf({ offset: v.offset, end, total: v.total })}, newest first${hint})`;
}

/** The most bytes the end of a page can take when no number in it is above `most`. */
function footerReserve(most: number): number {
  const footer = footerOf({ offset: most, total: most, nextOffset: most, files: [], more: most }) ?? "";
  const note = withheldNote({ denied: most, unapproved: most }) ?? "";
  return Buffer.byteLength(footer) + Buffer.byteLength(note) + 2;
}

export function renderGlob(value: GlobValue): RenderedOutput {
  const note = withheldNote(value.withheld);
  if (value.files.length === 0 && value.total === 0) {
    const none = `No files match ${JSON.stringify(value.pattern)}.`;
    return note ? `${none}\n${note}` : none;
  }
  const lines = value.files.map((f) => (value.pathBytes?.[f] === undefined ? f : `${f}${NOT_UTF8_NOTE}`));
  const footer = footerOf(value);
  if (footer) lines.push(footer);
  if (note) lines.push(note);
  const text = lines.join("\n");
  if (value.nextOffset !== undefined)
    return { content: [{ type: "text", text }], truncated: true, nextOffset: value.nextOffset };
  return text;
}
