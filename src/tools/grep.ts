import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { defineTool } from "../declare/index.js";
import type { RenderedOutput, ToolContext } from "../declare/types.js";
import { noProgress, type Progress, type ProgressFactory } from "../util/progress.js";
import { FileToolError } from "./errors.js";
import { configInt, GREP_LINE_MAX_BYTES, GREP_MAX_MATCHES, RAW_MAX_BYTES } from "./limits.js";
import { NOT_UTF8_NOTE, type RawPath, rawPath } from "./raw-path.js";
import { RawCapError, runRg } from "./rg.js";
import { comparePaths, cutUtf8 } from "./search-order.js";
import { workspacePath } from "./workspace-path.js";

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

/** Options shared by both passes: what is searched and how the pattern matches. */
function matchFlags(args: GrepArgs): string[] {
  const flags = ["--hidden", "--glob=!.git", "--no-require-git"];
  flags.push(args.ignore_case ? "--ignore-case" : "--case-sensitive");
  if (args.literal) flags.push("--fixed-strings");
  return flags;
}

/**
 * Two passes keep the result deterministic without giving up rg's parallel walk:
 * 1. `rg --count` over the tree, in parallel: which files match and how many lines each. Its
 *    output is one short line per matching file, however many matches there are.
 * 2. `rg --json --sort path` over just the first files, in path order, that hold the cap's worth
 *    of matches; reading stops at the cap and rg is killed.
 * A single `rg --sort path --json` pass would also be deterministic, but sorting makes rg walk on
 * one thread: 1.3x to 1.8x slower than raw rg on a tree with few matches (docs/tools.md).
 */
export async function grep(
  args: GrepArgs,
  ctx: Pick<ToolContext, "cwd" | "workspace" | "config" | "signal">,
  options: GrepOptions = {},
): Promise<GrepValue> {
  const bar = options.progress ?? SILENT;
  try {
    return await search(args, ctx, bar);
  } finally {
    bar.done();
  }
}

async function search(
  args: GrepArgs,
  ctx: Pick<ToolContext, "cwd" | "workspace" | "config" | "signal">,
  bar: Progress,
): Promise<GrepValue> {
  const target = workspacePath(args.path, ctx);
  const cap = configInt(ctx.config, "grep.maxMatches", GREP_MAX_MATCHES);
  const lineMax = Math.min(
    configInt(ctx.config, "results.lineMaxChars", GREP_LINE_MAX_BYTES),
    GREP_LINE_MAX_BYTES,
  );
  const rawMax = configInt(ctx.config, "results.rawMaxBytes", RAW_MAX_BYTES);
  const rel = path.relative(ctx.cwd, target.real);
  const searchArg = rel === "" ? "." : rel.startsWith("..") || path.isAbsolute(rel) ? target.real : rel;
  const globs = args.glob ? [`--glob=${args.glob}`] : [];

  const counts = await countMatches(
    [
      "--count",
      "--with-filename",
      "--null",
      ...matchFlags(args),
      ...globs,
      `--regexp=${args.pattern}`,
      "--",
      searchArg,
    ],
    ctx,
    rawMax,
    args,
    bar,
  );
  counts.sort((a, b) => comparePaths(a.path.shown, b.path.shown));
  const totalMatches = counts.reduce((n, c) => n + c.count, 0);

  const matches: GrepMatch[] = [];
  const wanted = Math.min(cap, totalMatches);
  let next = 0;
  while (matches.length < cap && next < counts.length) {
    // the fewest files, in path order, whose counts reach what the cap still needs
    const batch: RawPath[] = [];
    let expected = 0;
    let opened = 0;
    while (next < counts.length && matches.length + expected < cap && opened < MAX_FDS_PER_RUN) {
      if (!counts[next]!.path.utf8) opened++;
      batch.push(counts[next]!.path);
      expected += counts[next]!.count;
      next++;
    }
    await collectMatches(batch, args, ctx, cap, lineMax, rawMax, matches);
    bar.update(matches.length, wanted, "matches read");
  }
  matches.sort((a, b) => comparePaths(a.path, b.path) || a.line - b.line);
  const kept = matches.slice(0, cap);
  return {
    pattern: args.pattern,
    matches: kept,
    totalMatches: Math.max(totalMatches, kept.length),
    filesWithMatches: counts.length,
    capped: totalMatches > kept.length,
    cap,
  };
}

/** Names that are not UTF-8 go to the second pass as open files: at most this many per rg run. */
const MAX_FDS_PER_RUN = 64;

const DOT_SLASH = Buffer.from("./");

/** rg prints paths under "." with a leading "./": the result shows them relative, without it. */
const tidy = (p: RawPath): RawPath =>
  p.bytes.subarray(0, 2).equals(DOT_SLASH) ? rawPath(p.bytes.subarray(2)) : p;

function toMatch(file: RawPath, line: number, text: string, cut: boolean): GrepMatch {
  const p = tidy(file);
  const m: GrepMatch = { path: p.shown, line, text };
  if (cut) m.cut = true;
  if (!p.utf8) m.pathBytes = p.bytes.toString("base64");
  return m;
}

async function countMatches(
  rgArgs: string[],
  ctx: Pick<ToolContext, "cwd" | "signal">,
  rawMax: number,
  args: GrepArgs,
  bar: Progress,
): Promise<{ path: RawPath; count: number }[]> {
  const run = runRg(rgArgs, ctx.cwd, rawMax, ctx.signal);
  const out: { path: RawPath; count: number }[] = [];
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

async function collectMatches(
  files: RawPath[],
  args: GrepArgs,
  ctx: Pick<ToolContext, "cwd" | "signal">,
  cap: number,
  lineMax: number,
  rawMax: number,
  into: GrepMatch[],
): Promise<void> {
  // A name that is not UTF-8 cannot be an argument (Node passes arguments as UTF-8 strings): rg
  // gets the file open as an inherited fd instead, names it /dev/fd/N, and the name is put back.
  const byArg = new Map<string, RawPath>();
  const fileArgs: string[] = [];
  const handles: FileHandle[] = [];
  try {
    for (const f of files) {
      if (f.utf8) {
        fileArgs.push(f.shown);
        continue;
      }
      const fh = await openRaw(f.bytes, ctx.cwd);
      if (fh === undefined) continue; // gone since the count: rg would skip it the same way
      const arg = `/dev/fd/${3 + handles.length}`;
      handles.push(fh);
      byArg.set(arg, f);
      fileArgs.push(arg);
    }
    if (fileArgs.length === 0) return;
    const rgArgs = [
      "--json",
      "--sort=path",
      ...matchFlags(args),
      `--regexp=${args.pattern}`,
      "--",
      ...fileArgs,
    ];
    const fds = handles.map((h) => h.fd);
    const run = runRg(rgArgs, ctx.cwd, rawMax, ctx.signal, fds);
    try {
      for await (const line of run.lines()) {
        // only match records are parsed; begin/end/summary records are skipped unread
        if (line[9] !== 109 || !line.subarray(0, MATCH_PREFIX.length).equals(MATCH_PREFIX)) continue;
        const msg = JSON.parse(line.toString("utf8")) as RgMatch;
        const raw = msg.data.lines.text ?? Buffer.from(msg.data.lines.bytes ?? "", "base64").toString("utf8");
        const { text, cut } = cutUtf8(raw.replace(/\r?\n$/, ""), lineMax);
        const reported = msg.data.path;
        const file =
          reported.text !== undefined
            ? (byArg.get(reported.text) ?? rawPath(Buffer.from(reported.text)))
            : rawPath(Buffer.from(reported.bytes ?? "", "base64"));
        into.push(toMatch(file, msg.data.line_number, text, cut));
        if (into.length >= cap) {
          run.stop();
          break;
        }
      }
    } catch (err) {
      throw rawCapAdvice(err, args);
    } finally {
      run.stop();
    }
    await run.done;
  } finally {
    await Promise.all(handles.map((h) => h.close()));
  }
}

/** Opens a file named by raw bytes, relative to `cwd`; undefined when it is no longer there. */
async function openRaw(bytes: Buffer, cwd: string): Promise<FileHandle | undefined> {
  const full = bytes[0] === 0x2f ? bytes : Buffer.concat([Buffer.from(`${cwd}${path.sep}`), bytes]);
  try {
    // O_NONBLOCK: a FIFO put there since the count must not hang the search
    return await open(full, constants.O_RDONLY | constants.O_NONBLOCK);
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
  if (value.matches.length === 0) return `No matches for ${JSON.stringify(value.pattern)}.`;
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
  const text = out.join("\n");
  return value.capped ? { content: [{ type: "text", text }], truncated: true } : text;
}
