import path from "node:path";
import { z } from "zod";
import { defineTool } from "../declare/index.js";
import type { RenderedOutput, ToolContext } from "../declare/types.js";
import { FileToolError } from "./errors.js";
import { globFilter } from "./glob-filter.js";
import { GLOB_MAX_RESULTS } from "./limits.js";
import { NOT_UTF8_NOTE, rawPath } from "./raw-path.js";
import { describeRgStart, RgStartError, runRg } from "./rg.js";
import { openSearchTarget } from "./search-target.js";
import { noneWithheld, withheldNote, withheldSchema } from "./withheld.js";
import { type PathContext, workspacePath } from "./workspace-path.js";

export const globParameters = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'Glob of file paths, gitignore style: "*.ts" matches at any depth, "src/**/*.test.ts" from the folder searched',
    ),
  path: z.string().min(1).optional().describe("Folder to search in; default: the working directory"),
});
export type GlobArgs = z.output<typeof globParameters>;

export const globOutput = z.object({
  pattern: z.string(),
  files: z.array(z.string()),
  /** Matching files past the cap, counted but not listed. */
  more: z.number().int(),
  /** Only when a listed name is not UTF-8: its bytes (base64), keyed by the shown, escaped path. */
  pathBytes: z.record(z.string(), z.string()).optional(),
  /** Only when matching files were left out by the permission rules: how many, never which. */
  withheld: withheldSchema.optional(),
});
export type GlobValue = z.output<typeof globOutput>;

export const GLOB_DESCRIPTION =
  "Find files by name with a glob pattern. Returns up to 100 paths sorted by path, and how many " +
  "more matched. Skips .gitignore'd files and .git. Not for searching file contents: use grep.";

export function globTool() {
  return defineTool({
    name: "glob",
    description: GLOB_DESCRIPTION,
    parameters: globParameters,
    output: { schema: globOutput, render: renderGlob },
    execute: (args: GlobArgs, ctx: ToolContext) => glob(args, ctx),
    concurrencySafe: true,
    permission: { action: "search", patterns: (a) => [a.path ?? "."], paths: (a) => [a.path ?? "."] },
    display: { title: "Find files", summarize: (a) => `glob ${a.pattern} in ${a.path ?? "."}` },
  });
}

/**
 * `rg --files --sort path` lists in a fixed order, so the first 100 are kept and the rest only
 * counted: memory stays flat however many files match. Each file is decided by the permission
 * rules before it is listed or counted (ctx.paths, from the host): a denied name is left out, an
 * ask-file is listed only when approved (asked for the listed ones only), both counted as withheld.
 */
export async function glob(
  args: GlobArgs,
  ctx: PathContext & Pick<ToolContext, "config" | "signal">,
): Promise<GlobValue> {
  const target = workspacePath(args.path, ctx);
  await openSearchTarget(target, ctx, "glob");
  const filter = await globFilter(args.pattern);
  const cap = GLOB_MAX_RESULTS;
  const files: string[] = [];
  const pathBytes: Record<string, string> = {};
  const withheld = noneWithheld();
  let more = 0;
  const prefix = path.relative(ctx.cwd, target.real);
  const outside = prefix.startsWith("..") || path.isAbsolute(prefix);
  let result: { code: number | null; stderr: string };
  try {
    const run = runRg(
      ["--files", "--sort=path", "--hidden", "--glob=!.git", "--no-require-git", ...filter.args, "--", "."],
      target.real,
      // only the listed paths are held; the rest are counted as they stream past
      Number.MAX_SAFE_INTEGER,
      ctx.signal,
    );
    for await (const line of run.lines()) {
      const raw = rawPath(line.subarray(0, 2).equals(DOT_SLASH) ? line.subarray(2) : line);
      if (ctx.paths) {
        const full = path.join(target.real, raw.bytes.toString("utf8"));
        // rg's walk follows no symlink and starts at a real folder: the path it reports is real
        const [verdict] = ctx.paths.check([full], { real: true });
        if (verdict === "deny") {
          withheld.denied++;
          continue;
        }
        // an ask is put only for a file that would be listed; past the cap it is just withheld
        if (verdict === "ask" && (files.length >= cap || !(await ctx.paths.approve(full)))) {
          withheld.unapproved++;
          continue;
        }
      }
      if (files.length >= cap) {
        more++;
        continue;
      }
      const shown = outside ? path.join(target.real, raw.shown) : path.join(prefix, raw.shown);
      files.push(shown);
      if (!raw.utf8) {
        const dir = outside ? target.real : prefix;
        pathBytes[shown] = Buffer.concat([Buffer.from(dir === "" ? "" : `${dir}/`), raw.bytes]).toString(
          "base64",
        );
      }
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
  if (code === 2 && files.length === 0) {
    const first = stderr.trim().split("\n")[0] ?? "";
    throw new FileToolError(
      /glob|type/i.test(stderr)
        ? `invalid glob ${JSON.stringify(args.pattern)}: ${first}`
        : `file search failed: ${first || "ripgrep exited with an error"}`,
    );
  }
  const value: GlobValue = { pattern: args.pattern, files, more };
  if (Object.keys(pathBytes).length > 0) value.pathBytes = pathBytes;
  if (withheld.denied + withheld.unapproved > 0) value.withheld = withheld;
  return value;
}

const DOT_SLASH = Buffer.from("./");

export function renderGlob(value: GlobValue): RenderedOutput {
  const note = withheldNote(value.withheld);
  if (value.files.length === 0) {
    const none = `No files match ${JSON.stringify(value.pattern)}.`;
    return note ? `${none}\n${note}` : none;
  }
  const lines = value.files.map((f) => (value.pathBytes?.[f] === undefined ? f : `${f}${NOT_UTF8_NOTE}`));
  if (note) lines.push(note);
  if (value.more > 0) {
    lines.push(`(${value.more} more files match; narrow the pattern or give a path to see them)`);
    return { content: [{ type: "text", text: lines.join("\n") }], truncated: true };
  }
  return lines.join("\n");
}
