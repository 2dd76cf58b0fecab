import { defineTool } from "../../declare/index.js";
import type { RenderedOutput, ToolContext } from "../../declare/types.js";
import { unifiedDiff } from "./diff.js";
import { currentFile, replaceFile, writeTarget } from "./file-write.js";
import { writeOutput, writeParameters } from "./write-schema.gen.js";
import type { WriteArgs, WriteValue } from "./write-schema.js";

export type { WriteArgs, WriteValue } from "./write-schema.js";

export const WRITE_DESCRIPTION =
  // Qualitative on purpose: limits that config can change never go into a description.
  "Write a whole file: create it (and its folders), or replace all of an existing file. To replace " +
  "a file, read it first in this session; one not read, or changed since, is refused. The file is " +
  "replaced at once (never half-written) and keeps its permissions. Not for changing part of a " +
  "file: use edit, which sends only the change.";

export function writeTool() {
  return defineTool({
    name: "write",
    description: WRITE_DESCRIPTION,
    parameters: writeParameters,
    output: { schema: writeOutput, render: renderWrite },
    execute: (args: WriteArgs, ctx: ToolContext) => writeFile(args, ctx),
    permission: { action: "write", paths: (a) => [a.path] },
    // a write replaces the whole file: the same call twice leaves the same file
    annotations: {
      title: "Write",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    display: { title: "Write", summarize: (a) => `write ${a.path}` },
  });
}

export async function writeFile(
  args: WriteArgs,
  ctx: Pick<ToolContext, "cwd" | "workspace" | "session">,
): Promise<WriteValue> {
  const target = writeTarget(args.path, ctx, "write");
  const before = await currentFile(target, ctx, "write");
  const data = Buffer.from(args.content, "utf8");
  const snapshot = await replaceFile(target, data, before?.mode, ctx.workspace);
  ctx.session?.files.set(target.real, snapshot);
  const lines =
    args.content === "" ? 0 : args.content.split("\n").length - (args.content.endsWith("\n") ? 1 : 0);
  if (before === undefined) {
    return {
      path: target.shown,
      created: true,
      bytes: data.length,
      lines,
      added: lines,
      removed: 0,
      diff: "",
    };
  }
  const diff = unifiedDiff(target.shown, before.bytes.toString("utf8"), args.content);
  return {
    path: target.shown,
    created: false,
    bytes: data.length,
    lines,
    added: diff.added,
    removed: diff.removed,
    diff: diff.text,
  };
}

export function renderWrite(value: WriteValue): RenderedOutput {
  const size = `${value.lines} line${value.lines === 1 ? "" : "s"}, ${value.bytes} bytes`;
  if (value.created) return `Created ${value.path} (${size}).`;
  const head = `Wrote ${value.path} (${size}): +${value.added} -${value.removed} lines.`;
  if (value.added === 0 && value.removed === 0) return `${head} The content is unchanged.`;
  return value.diff === "" ? `${head} (diff too large to show)` : `${head}\n${value.diff}`;
}
