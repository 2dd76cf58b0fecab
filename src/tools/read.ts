import { constants, type Stats } from "node:fs";
import { type FileHandle, open, readFile, stat } from "node:fs/promises";
import { z } from "zod";
import { defineTool } from "../declare/index.js";
import type { ModelContent, RenderedOutput, ToolContext } from "../declare/types.js";
import { describeFsError, FileToolError } from "./errors.js";
import { configInt, LINE_MAX_CHARS, MEDIA_MAX_BYTES, READ_MAX_BYTES, READ_MAX_LINES } from "./limits.js";
import { listDirectory } from "./read/directory.js";
import { cachedFacts, type FileFacts, fileVersion, storeFacts } from "./read/index-cache.js";
import { LineIndex } from "./read/line-index.js";
import { readPage } from "./read/page.js";
import { sniffFile } from "./read/sniff.js";
import { workspacePath } from "./workspace-path.js";

export const readParameters = z.object({
  path: z.string().min(1).describe("File or folder to read, relative to the working directory"),
  offset: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("1-based line (or entry) to start at; use the nextOffset a cut page gives"),
  limit: z
    .number()
    .int()
    .min(1)
    .max(READ_MAX_LINES)
    .optional()
    .describe(`Most lines (or entries) to return, up to ${READ_MAX_LINES}`),
});
export type ReadArgs = z.output<typeof readParameters>;

const textPage = z.object({
  kind: z.literal("file"),
  path: z.string(),
  encoding: z.enum(["utf-8", "utf-8-bom", "utf-16le", "utf-16be", "latin1"]),
  offset: z.number().int(),
  lines: z.array(z.string()),
  /** Line numbers cut at the line limit. */
  cutLines: z.array(z.number().int()),
  /** Line numbers that ended in CRLF. */
  crlfLines: z.array(z.number().int()),
  /** On the last page: whether the file ends with a newline. */
  endsWithNewline: z.boolean().optional(),
  totalLines: z.number().int().optional(),
  nextOffset: z.number().int().optional(),
});
const directoryPage = z.object({
  kind: z.literal("directory"),
  path: z.string(),
  offset: z.number().int(),
  entries: z.array(z.string()),
  totalEntries: z.number().int(),
  nextOffset: z.number().int().optional(),
});
const media = z.object({
  kind: z.literal("media"),
  path: z.string(),
  mimeType: z.string(),
  bytes: z.number().int(),
  /** base64 */
  data: z.string(),
});
export const readOutput = z.discriminatedUnion("kind", [textPage, directoryPage, media]);
export type ReadValue = z.output<typeof readOutput>;

export const READ_DESCRIPTION =
  "Read a text file or list a folder, by pages of numbered lines. Returns up to 2000 lines or " +
  "50 KiB; a cut page ends with the offset to continue from. Images and PDFs come back as " +
  "attachments. Not for searching: use grep for content and glob for file names.";

export function readTool() {
  return defineTool({
    name: "read",
    description: READ_DESCRIPTION,
    parameters: readParameters,
    output: { schema: readOutput, render: renderRead },
    execute: (args: ReadArgs, ctx: ToolContext) => readPath(args, ctx),
    concurrencySafe: true,
    // a page is already bounded; spilling it would only invite read -> spill -> read loops
    spill: false,
    permission: { action: "read", patterns: (a) => [a.path], paths: (a) => [a.path] },
    display: { title: "Read", summarize: (a) => `read ${a.path}${a.offset ? `:${a.offset}` : ""}` },
  });
}

export async function readPath(
  args: ReadArgs,
  ctx: Pick<ToolContext, "cwd" | "workspace" | "config">,
): Promise<ReadValue> {
  const target = workspacePath(args.path, ctx);
  const offset = args.offset ?? 1;
  const maxLines = Math.min(args.limit ?? READ_MAX_LINES, READ_MAX_LINES);
  let st: Stats;
  try {
    st = await stat(target.real);
  } catch (err) {
    throw describeFsError(err, target.shown);
  }
  if (st.isDirectory()) return readDirectory(target.real, target.shown, offset, maxLines);
  if (!st.isFile()) {
    throw new FileToolError(
      `${target.shown} is ${kindOf(st)}, not a regular file: read opens files and folders only`,
    );
  }
  let fh: FileHandle;
  try {
    // O_NONBLOCK: if the path became a FIFO since stat, opening it must not wait for a writer
    fh = await open(target.real, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw describeFsError(err, target.shown);
  }
  try {
    const fst = await fh.stat({ bigint: true });
    if (!fst.isFile())
      throw new FileToolError(`${target.shown} is not a regular file: read opens files and folders only`);
    const size = Number(fst.size);
    const version = fileVersion(fst);
    let facts = cachedFacts(target.real, version);
    if (facts === undefined) {
      facts = await learnFacts(fh, size);
      storeFacts(target.real, version, facts);
    }
    const { sniffed } = facts;
    if (sniffed.kind === "binary") {
      throw new FileToolError(
        `${target.shown} is a binary file: ${sniffed.type}; read shows text files only`,
      );
    }
    if (sniffed.kind === "media") {
      if (size > MEDIA_MAX_BYTES) {
        throw new FileToolError(
          `${target.shown} is ${sniffed.mimeType}, ${mib(size)} MiB: over the ${mib(MEDIA_MAX_BYTES)} MiB limit for attachments`,
        );
      }
      const data = await readFile(fh);
      return {
        kind: "media" as const,
        path: target.shown,
        mimeType: sniffed.mimeType,
        bytes: data.length,
        data: data.toString("base64"),
      };
    }
    const index = facts.index as LineIndex;
    const start = await index.lineStart(fh, offset);
    if (start === undefined || start >= size) {
      if (offset === 1) {
        return {
          kind: "file" as const,
          path: target.shown,
          encoding: sniffed.encoding,
          offset,
          lines: [],
          cutLines: [],
          crlfLines: [],
          endsWithNewline: false,
          totalLines: 0,
        };
      }
      const total = await index.lineCount(fh);
      throw new FileToolError(
        `offset ${offset} is past the end of ${target.shown}: it has ${total} line${total === 1 ? "" : "s"}`,
      );
    }
    const page = await readPage(fh, start, size, sniffed.encoding, {
      maxLines,
      maxBytes: READ_MAX_BYTES,
      lineMaxChars: configInt(ctx.config, "results.lineMaxChars", LINE_MAX_CHARS),
    });
    const next = offset + page.lines.length;
    const atEnd = page.end >= size;
    if (!atEnd) index.remember(next, page.end);
    const number = (i: number) => offset + i;
    return {
      kind: "file" as const,
      path: target.shown,
      encoding: sniffed.encoding,
      offset,
      lines: page.lines,
      cutLines: page.cut.map(number),
      crlfLines: page.crlf.map(number),
      ...(atEnd ? { endsWithNewline: page.terminated, totalLines: next - 1 } : { nextOffset: next }),
    };
  } finally {
    await fh.close();
  }
}

async function learnFacts(fh: FileHandle, size: number): Promise<FileFacts> {
  const sniffed = await sniffFile(fh, size);
  if (sniffed.kind !== "text") return { sniffed };
  return { sniffed, index: new LineIndex(size, sniffed.bom, sniffed.encoding) };
}

async function readDirectory(dir: string, shown: string, offset: number, maxLines: number) {
  let all: string[];
  try {
    all = await listDirectory(dir);
  } catch (err) {
    throw describeFsError(err, shown);
  }
  if (offset > 1 && offset > all.length) {
    throw new FileToolError(`offset ${offset} is past the end of ${shown}: it has ${all.length} entries`);
  }
  const entries: string[] = [];
  let bytes = 0;
  for (let i = offset - 1; i < all.length && entries.length < maxLines; i++) {
    const cost = Buffer.byteLength(all[i]!) + 1;
    if (bytes + cost > READ_MAX_BYTES && entries.length > 0) break;
    bytes += cost;
    entries.push(all[i]!);
  }
  const next = offset + entries.length;
  return {
    kind: "directory" as const,
    path: shown,
    offset,
    entries,
    totalEntries: all.length,
    ...(next <= all.length ? { nextOffset: next } : {}),
  };
}

function kindOf(st: Stats): string {
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "a special file";
}

const mib = (n: number) => Math.round((n / 1048576) * 10) / 10;

/** Numbered lines (`N\ttext`), then one line saying where the page ends and how to go on. */
export function renderRead(value: ReadValue): RenderedOutput {
  if (value.kind === "media") {
    const label = `${value.path} (${value.mimeType}, ${value.bytes} bytes)`;
    const block: ModelContent = value.mimeType.startsWith("image/")
      ? { type: "image", mimeType: value.mimeType, data: value.data }
      : { type: "file", mimeType: value.mimeType, data: value.data, name: value.path };
    return { content: [{ type: "text", text: label }, block] };
  }
  const rows = value.kind === "file" ? value.lines : value.entries;
  const body = rows.map((row, i) => `${value.offset + i}\t${row}`);
  const first = value.offset;
  const last = value.offset + rows.length - 1;
  const unit = value.kind === "file" ? "lines" : "entries";
  let footer: string;
  if (value.nextOffset !== undefined) {
    const of = value.kind === "directory" ? ` of ${value.totalEntries}` : "";
    footer = `(${unit} ${first}-${last}${of} shown; more follow: read again with offset=${value.nextOffset})`;
  } else if (rows.length === 0) {
    footer = value.kind === "file" ? "(empty file)" : "(empty folder)";
  } else {
    const noNewline = value.kind === "file" && value.endsWithNewline === false ? ", no newline at end" : "";
    footer = `(end of ${value.kind === "file" ? "file" : "folder"}: ${last} ${unit}${noNewline})`;
  }
  if (value.kind === "file" && value.cutLines.length > 0) {
    footer += `\n(${value.cutLines.length} line${value.cutLines.length === 1 ? "" : "s"} cut at ${LINE_MAX_CHARS} characters; grep can search inside them)`;
  }
  const text = [...body, footer].join("\n");
  const content: ModelContent[] = [{ type: "text", text }];
  if (value.nextOffset !== undefined) return { content, truncated: true, nextOffset: value.nextOffset };
  return value.kind === "file" && value.cutLines.length > 0 ? { content, truncated: true } : { content };
}
