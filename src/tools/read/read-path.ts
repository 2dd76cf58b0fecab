import { constants, type Stats } from "node:fs";
import { type FileHandle, open, readFile, stat } from "node:fs/promises";
import type { ToolContext } from "../../declare/types.js";
import { describeFsError, FileToolError } from "../errors.js";
import { recordRead } from "../file-state.js";
import { configInt, LINE_MAX_CHARS, MEDIA_MAX_BYTES, READ_MAX_BYTES, READ_MAX_LINES } from "../limits.js";
import { workspacePath } from "../workspace-path.js";
import { listDirectory } from "./directory.js";
import { cachedFacts, type FileFacts, fileVersion, storeFacts } from "./index-cache.js";
import { LineIndex } from "./line-index.js";
import { readPage } from "./page.js";
import { sniffFile, type TextEncoding } from "./sniff.js";

// The reader itself, apart from its declaration: it needs no schema library, so an embedder (or
// the benchmark) that only reads files does not load zod and ajv.

export interface ReadArgs {
  path: string;
  offset?: number | undefined;
  limit?: number | undefined;
}

export interface TextPage {
  kind: "file";
  path: string;
  encoding: TextEncoding;
  offset: number;
  lines: string[];
  /** Line numbers cut at the line limit. */
  cutLines: number[];
  /** Line numbers that ended in CRLF. */
  crlfLines: number[];
  /** On the last page: whether the file ends with a newline. */
  endsWithNewline?: boolean;
  totalLines?: number;
  nextOffset?: number;
}

export interface DirectoryPage {
  kind: "directory";
  path: string;
  offset: number;
  entries: string[];
  totalEntries: number;
  nextOffset?: number;
}

export interface MediaValue {
  kind: "media";
  path: string;
  mimeType: string;
  bytes: number;
  /** base64 */
  data: string;
}

export type ReadValue = TextPage | DirectoryPage | MediaValue;

export async function readPath(
  args: ReadArgs,
  ctx: Pick<ToolContext, "cwd" | "workspace" | "config" | "session"> & { signal?: AbortSignal },
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
    const start = await index.lineStart(fh, offset, ctx.signal);
    if (start === undefined || start >= size) {
      if (offset === 1) {
        await recordRead(ctx.session, target.real, fh, fst);
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
      const total = await index.lineCount(fh, ctx.signal);
      throw new FileToolError(
        `offset ${offset} is past the end of ${target.shown}: it has ${total} line${total === 1 ? "" : "s"}`,
      );
    }
    const page = await readPage(fh, start, size, sniffed.encoding, {
      maxLines,
      maxBytes: READ_MAX_BYTES,
      lineMaxChars: configInt(ctx.config, "results.lineMaxChars", LINE_MAX_CHARS),
    });
    // the version the model saw: edit and write refuse a file not read, or changed, since
    await recordRead(ctx.session, target.real, fh, fst);
    const next = offset + page.lines.length;
    const atEnd = page.end >= size;
    // both ends of a served page: re-reading it, or reading on, needs no chunk lookup
    index.remember(offset, start);
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

async function readDirectory(
  dir: string,
  shown: string,
  offset: number,
  maxLines: number,
): Promise<DirectoryPage> {
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
