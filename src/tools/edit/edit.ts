import { isUtf8 } from "node:buffer";
import { defineTool } from "../../declare/index.js";
import type { RenderedOutput, ToolContext } from "../../declare/types.js";
import { FileToolError } from "../shared/errors.js";
import { unifiedDiff } from "./diff.js";
import { editOutput, editParameters } from "./edit-schema.gen.js";
import type { EditArgs, EditValue } from "./edit-schema.js";
import { currentFile, replaceFile, writeTarget } from "./file-write.js";

export type { EditArgs, EditValue } from "./edit-schema.js";

export const EDIT_DESCRIPTION =
  // Qualitative on purpose: limits that config can change never go into a description.
  "Change a file by replacing an exact piece of its text. Read the file first in this session; an " +
  "edit to a file not read, or changed since, is refused. oldString must match the file exactly, " +
  "indentation included, and occur once (add surrounding lines to make it unique) unless " +
  "replaceAll is set. Returns a diff. Not for creating files (use write) or renaming them (use bash).";

export function editTool() {
  return defineTool({
    name: "edit",
    description: EDIT_DESCRIPTION,
    parameters: editParameters,
    output: { schema: editOutput, render: renderEdit },
    execute: (args: EditArgs, ctx: ToolContext) => editFile(args, ctx),
    permission: { action: "write", paths: (a) => [a.path] },
    // a second identical edit no longer finds its old text, so it is not idempotent
    annotations: {
      title: "Edit",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    display: { title: "Edit", summarize: (a) => `edit ${a.path}` },
  });
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export async function editFile(
  args: EditArgs,
  ctx: Pick<ToolContext, "cwd" | "workspace" | "session">,
): Promise<EditValue> {
  const target = writeTarget(args.path, ctx, "edit");
  const file = await currentFile(target, ctx, "edit");
  if (file === undefined) {
    throw new FileToolError(
      `${target.shown} does not exist: create it with write (glob finds files by name)`,
    );
  }
  if (args.oldString === args.newString) {
    throw new FileToolError("oldString and newString are the same: there is nothing to change");
  }
  const bom = file.bytes.subarray(0, 3).equals(BOM);
  const body = bom ? file.bytes.subarray(3) : file.bytes;
  if (!isUtf8(body)) {
    throw new FileToolError(
      `${target.shown} is not UTF-8 text: edit changes UTF-8 files only; use bash for this one`,
    );
  }
  const raw = body.toString("utf8");
  // read shows lines without their CR: in a CRLF file, match on LF text and put the CRs back
  const crlf = raw.includes("\r\n") && !/(^|[^\r])\n/.test(raw) && !args.oldString.includes("\r");
  const text = crlf ? raw.replace(/\r\n/g, "\n") : raw;
  const at = occurrences(text, args.oldString);
  if (at.length === 0) throw notFound(text, raw, args.oldString, target.shown);
  if (at.length > 1 && args.replaceAll !== true) {
    const lines = at.slice(0, 10).map((i) => lineAt(text, i));
    throw new FileToolError(
      `oldString occurs ${at.length} times in ${target.shown} (at lines ${lines.join(", ")}${at.length > 10 ? ", ..." : ""}): ` +
        "include more of the surrounding lines so it matches one place, or set replaceAll to change every occurrence",
    );
  }
  const changed = args.replaceAll
    ? text.split(args.oldString).join(args.newString)
    : spliceAt(text, at[0]!, args);
  const out = crlf ? changed.replace(/\n/g, "\r\n") : changed;
  const bytes = Buffer.from(out, "utf8");
  const data = bom ? Buffer.concat([BOM, bytes]) : bytes;
  const snapshot = await replaceFile(target, data, file.mode, ctx.workspace);
  // the model knows what it wrote: the next edit needs no new read
  ctx.session?.files.set(target.real, snapshot);
  const diff = unifiedDiff(target.shown, text, changed);
  return {
    path: target.shown,
    replacements: args.replaceAll ? at.length : 1,
    added: diff.added,
    removed: diff.removed,
    diff: diff.text,
  };
}

function spliceAt(text: string, index: number, args: EditArgs): string {
  return text.slice(0, index) + args.newString + text.slice(index + args.oldString.length);
}

/** Start offsets of every non-overlapping occurrence. */
function occurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** Says why nothing matched, when it can tell: line numbers pasted in, other indentation, CRLF. */
function notFound(text: string, raw: string, old: string, shown: string): FileToolError {
  const base = `oldString was not found in ${shown}`;
  if (/^\s*\d+\t/.test(old)) {
    return new FileToolError(
      `${base}: it starts with a line number and a tab as read shows them; leave those out and copy only the file's text`,
    );
  }
  const loose = looseMatchLine(text, old);
  if (loose !== undefined) {
    return new FileToolError(
      `${base}: text that differs only in whitespace or indentation starts at line ${loose}; ` +
        "copy it exactly as read shows it (tabs and spaces included) and call edit again",
    );
  }
  if (raw.includes("\r\n") && /(^|[^\r])\n/.test(raw)) {
    return new FileToolError(
      `${base}: the file mixes CRLF and LF line endings, so a match across lines must use the file's own line endings; ` +
        "or change it with bash",
    );
  }
  return new FileToolError(
    `${base}: it must match the file exactly. Read the file again and copy the text to replace from it`,
  );
}

/** The first line where the old text matches line by line once each line is trimmed. */
function looseMatchLine(text: string, old: string): number | undefined {
  const want = old.split("\n").map((l) => l.trim());
  while (want[0] === "") want.shift();
  while (want.at(-1) === "") want.pop();
  if (want.length === 0) return undefined;
  const lines = text.split("\n").map((l) => l.trim());
  for (let i = 0; i + want.length <= lines.length; i++) {
    let j = 0;
    while (j < want.length && lines[i + j] === want[j]) j++;
    if (j === want.length) return i + 1;
  }
  return undefined;
}

export function renderEdit(value: EditValue): RenderedOutput {
  const what = `${value.replacements} replacement${value.replacements === 1 ? "" : "s"}`;
  const head = `Edited ${value.path}: ${what}, +${value.added} -${value.removed} lines.`;
  return value.diff === "" ? `${head} (diff too large to show)` : `${head}\n${value.diff}`;
}
