import { type BigIntStats, constants, type Stats } from "node:fs";
import { type FileHandle, open, readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { ToolContext } from "../../declare/types.js";
import { describeFsError, FileToolError, specialKind } from "../shared/errors.js";
import { recordRead } from "../shared/file-state.js";
import {
  configInt,
  LINE_MAX_CHARS,
  MEDIA_MAX_BYTES,
  READ_MAX_BYTES,
  READ_MAX_LINES,
} from "../shared/limits.js";
import { verifyOpened } from "../shared/opened-path.js";
import { type PathContext, workspacePath } from "../shared/workspace-path.js";
import { listDirectory } from "./directory.js";
import { cachedFacts, type FileFacts, fileVersion, storeFacts } from "./index-cache.js";
import { loadSidecar, SIDECAR_MIN_BYTES, saveSidecar } from "./index-store.js";
import { LineIndex } from "./line-index.js";
import { readPage } from "./page.js";
import { footerReserve, rowPrefix } from "./render.js";
import { sniffFile } from "./sniff.js";
import type { DirectoryPage, ReadArgs, ReadValue } from "./value.js";

// The reader itself, apart from its declaration: it needs no schema library, so an embedder (or
// the benchmark) that only reads files does not load zod and ajv.

export type { DirectoryPage, MediaValue, ReadArgs, ReadValue, TextPage } from "./value.js";

export async function readPath(
  args: ReadArgs,
  ctx: PathContext & Pick<ToolContext, "config" | "session"> & { signal?: AbortSignal },
): Promise<ReadValue> {
  const target = workspacePath(args.path, ctx);
  const offset = args.offset ?? 1;
  const maxLines = Math.min(args.limit ?? READ_MAX_LINES, READ_MAX_LINES);
  // The page as rendered (numbers, text, footer) fits both read's own limit and the host's inline
  // limit, so the host never cuts it again and nextOffset is always the first line not shown.
  const budget = Math.min(READ_MAX_BYTES, configInt(ctx.config, "results.inlineMaxBytes", READ_MAX_BYTES));
  let st: Stats;
  try {
    st = await stat(target.real);
  } catch (err) {
    throw describeFsError(err, target.shown);
  }
  if (!st.isDirectory() && !st.isFile()) {
    throw new FileToolError(
      `${target.shown} is ${specialKind(st)}, not a regular file: read opens files and folders only`,
    );
  }
  let fh: FileHandle;
  try {
    // O_NONBLOCK: if the path became a FIFO since stat, opening it must not wait for a writer
    fh = await open(
      target.real,
      constants.O_RDONLY | constants.O_NONBLOCK | (st.isDirectory() ? constants.O_DIRECTORY : 0),
    );
  } catch (err) {
    throw describeFsError(err, target.shown);
  }
  try {
    const fst = await fh.stat({ bigint: true });
    // nothing is read before the open file itself is checked: a symlink swapped in on the way
    // since the path was resolved must not lead outside, or to a file the rules deny
    const real = await verifyOpened(fh, target, ctx);
    if (fst.isDirectory()) {
      return await readDirectory(openedFolder(fh, real), real, target.shown, offset, maxLines, budget, ctx);
    }
    if (!fst.isFile())
      throw new FileToolError(`${target.shown} is not a regular file: read opens files and folders only`);
    const size = Number(fst.size);
    const version = fileVersion(fst);
    let facts = cachedFacts(real, version);
    if (facts === undefined) {
      facts = await learnFacts(fh, real, fst);
      storeFacts(real, version, facts);
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
    const scanned = index.scannedChunks;
    // what this read learnt of a large file is kept on disk for the next process (index-store)
    const keep = () =>
      size >= SIDECAR_MIN_BYTES && index.scannedChunks > scanned
        ? saveSidecar(fh, real, fst, index, sniffed.encoding)
        : undefined;
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
      await keep();
      throw new FileToolError(
        `offset ${offset} is past the end of ${target.shown}: it has ${total} line${total === 1 ? "" : "s"}`,
      );
    }
    const page = await readPage(fh, start, size, sniffed.encoding, {
      maxLines,
      maxBytes: budget - footerReserve("file", offset, maxLines),
      lineMaxChars: configInt(ctx.config, "results.lineMaxChars", LINE_MAX_CHARS),
      prefix: (i) => rowPrefix(offset + i).length,
    });
    // the version the model saw: edit and write refuse a file not read, or changed, since
    await recordRead(ctx.session, target.real, fh, fst);
    await keep();
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

async function learnFacts(fh: FileHandle, real: string, st: BigIntStats): Promise<FileFacts> {
  const size = Number(st.size);
  const sniffed = await sniffFile(fh, size);
  if (sniffed.kind !== "text") return { sniffed };
  const saved =
    size >= SIDECAR_MIN_BYTES ? await loadSidecar(fh, real, st, sniffed.bom, sniffed.encoding) : undefined;
  return { sniffed, index: saved ?? new LineIndex(size, sniffed.bom, sniffed.encoding) };
}

/**
 * The folder that is open, by a name that reaches that very folder: Linux's /proc/self/fd/N
 * (where there is no /proc, the checked real path).
 */
function openedFolder(fh: FileHandle, real: string): string {
  return process.platform === "linux" ? `/proc/self/fd/${fh.fd}` : real;
}

async function readDirectory(
  dir: string,
  real: string,
  shown: string,
  offset: number,
  maxLines: number,
  budget: number,
  ctx: PathContext,
): Promise<DirectoryPage> {
  let listed: string[];
  try {
    listed = await listDirectory(dir);
  } catch (err) {
    throw describeFsError(err, shown);
  }
  // a name the rules deny is left out, as glob leaves it out (counted, never named); ask-files
  // keep their names here: reading one still asks
  const verdicts = ctx.paths?.check(listed.map((name) => path.join(real, name)));
  const all = verdicts ? listed.filter((_, i) => verdicts[i] !== "deny") : listed;
  const withheld = listed.length - all.length;
  if (offset > 1 && offset > all.length) {
    throw new FileToolError(`offset ${offset} is past the end of ${shown}: it has ${all.length} entries`);
  }
  const entries: string[] = [];
  const room = budget - footerReserve("directory", offset, maxLines, all.length, withheld);
  let bytes = 0;
  for (let i = offset - 1; i < all.length && entries.length < maxLines; i++) {
    const cost = rowPrefix(i + 1).length + Buffer.byteLength(all[i]!) + 1;
    if (bytes + cost > room && entries.length > 0) break;
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
    ...(withheld > 0 ? { withheld } : {}),
  };
}

const mib = (n: number) => Math.round((n / 1048576) * 10) / 10;
