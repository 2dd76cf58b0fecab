// Pass 1 of a search: which files match and how often, less what the permission rules deny.
import path from "node:path";
import type { ToolContext } from "../../declare/types.js";
import { noProgress, type Progress } from "../../util/progress.js";
import { globFilter } from "../search/glob-filter.js";
import { fdName, RawCapError, runRg } from "../search/rg.js";
import { againOpen, type SearchTarget } from "../search/target.js";
import type { Withheld } from "../search/withheld.js";
import { FileToolError } from "../shared/errors.js";
import { type RawPath, rawPath } from "../shared/raw-path.js";
import type { PathContext, ToolPath } from "../shared/workspace-path.js";
import type { PageFile } from "./page.js";
import type { GrepArgs } from "./parameters.js";
import { absolute, type OpenedFile, openChecked } from "./read-matches.js";
import type { GrepMode } from "./value.js";

export const SILENT: Progress = noProgress("");

/** What grep needs of its context (the host's ToolContext, or less for a library caller). */
export type SearchContext = PathContext & Pick<ToolContext, "config" | "signal">;

/** How one call searches and pages, from its arguments and the run-time config. */
export interface Plan {
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

/** Options shared by both passes: what is searched and how the pattern matches. */
export function matchFlags(args: GrepArgs): string[] {
  const flags = ["--hidden", "--glob=!.git", "--no-require-git"];
  flags.push(args.ignore_case ? "--ignore-case" : "--case-sensitive");
  if (args.literal) flags.push("--fixed-strings");
  if (args.multiline) flags.push("--multiline", "--multiline-dotall");
  flags.push(`--regexp=${args.pattern}`);
  return flags;
}

/** A file pass 1 counted matching lines (matches, with multiline) in. */
export interface Counted {
  path: RawPath;
  count: number;
  /** The permission rules ask before it may be shown. */
  ask?: boolean;
}

/** Pass 1: the files that match and their counts, less those the permission rules deny. */
export async function countAll(
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
    return await countMatches(
      [...flags, ...type, ...filter.args, ...matchFlags(args), "--", searchArg],
      ctx,
      plan,
      args,
      bar,
      [],
      permitted(ctx, withheld),
    );
  } finally {
    await filter.dispose();
  }
}

export interface OpenedEntry {
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
export async function openBatch(
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

/**
 * The permission check of each counted file, made as rg reports it: thousands of checks then run
 * while rg is still searching (on the other core), not after it. A file the rules deny is left
 * out (and counted as withheld); one they ask about is marked.
 */
function permitted(
  ctx: SearchContext,
  withheld: Withheld,
): ((c: Counted) => Counted | undefined) | undefined {
  const paths = ctx.paths;
  if (!paths) return undefined;
  return (c) => {
    // rg's walk follows no symlink and starts at a real folder: each path it reports is real
    const [verdict] = paths.check([absolute(c.path, ctx.cwd)], { real: true });
    if (verdict === "deny") {
      withheld.denied++;
      return undefined;
    }
    return verdict === "ask" ? { ...c, ask: true } : c;
  };
}

async function countMatches(
  rgArgs: string[],
  ctx: SearchContext,
  plan: Plan,
  args: GrepArgs,
  bar: Progress,
  fds: readonly number[] = [],
  keep?: (c: Counted) => Counted | undefined,
): Promise<Counted[]> {
  const run = runRg(rgArgs, ctx.cwd, plan.rawMax, ctx.signal, fds);
  const out: Counted[] = [];
  const unit = plan.multiline ? "matches" : "matching lines";
  let lines = 0;
  let files = 0;
  for await (const line of run.lines()) {
    const nul = line.indexOf(0);
    if (nul < 0) continue;
    const counted: Counted = {
      // raw bytes: a name that is not UTF-8 must reach the second pass unchanged
      path: rawPath(Buffer.from(line.subarray(0, nul))),
      count: Number(line.subarray(nul + 1).toString("latin1")),
    };
    files++;
    lines += counted.count;
    const kept = keep ? keep(counted) : counted;
    if (kept) out.push(kept);
    // rg --count names only files that match, so those are what can be counted while it runs
    if (bar !== SILENT) bar.update(lines, undefined, `${unit} in ${files} file${files === 1 ? "" : "s"}`);
  }
  const { code, stderr } = await run.done;
  if (ctx.signal?.aborted) throw new FileToolError("the search was aborted");
  if (code === 2 && files === 0) throw rgFailure(stderr, args);
  return out;
}

export function rawCapAdvice(err: unknown, args: GrepArgs): unknown {
  if (!(err instanceof RawCapError)) return err;
  return new FileToolError(
    `the search for ${JSON.stringify(args.pattern)} produced over ${err.limit} bytes of output, so it was stopped unread: ` +
      "narrow it with a more specific pattern, a path, or a glob",
  );
}

export function rgFailure(stderr: string, args: GrepArgs): FileToolError {
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
