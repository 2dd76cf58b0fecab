import { createHash } from "node:crypto";
import type { BigIntStats } from "node:fs";
import { type FileHandle, open, readdir, rename, stat, unlink, utimes } from "node:fs/promises";
import { endianness } from "node:os";
import path from "node:path";
import { ownCacheDir } from "../../util/own-cache-dir.js";
import { CHUNK_BYTES, LineIndex, readFully } from "./line-index.js";
import type { TextEncoding } from "./sniff.js";

/**
 * The line index on disk, so that it outlives the process: a second `toolplane call read` (or a
 * new session) deep in a large file reads one chunk instead of scanning to it again. One sidecar
 * per file, named by a hash of its real path, in `<cache dir>/line-index` (per user, 0700; see
 * toolplaneCacheDir). A sidecar is never trusted blindly: its format, length, checksum and
 * counts are checked, it must name the same path, device and inode, and witness bytes of the
 * file (its start, middle and end of what was indexed) must hash as they did. Anything else and
 * it is deleted and the index rebuilt. A file that only grew (same inode, larger, witnesses
 * intact: an append) keeps the counts of its whole chunks and scans on from there.
 */

/** Smaller files are scanned faster than a sidecar is read and checked. */
export const SIDECAR_MIN_BYTES = 8 * 1024 * 1024;
/** The store's bounds: past either, the least recently used sidecars go. */
const MAX_STORE_BYTES = 64 * 1024 * 1024;
const MAX_STORE_FILES = 512;
const MAGIC = Buffer.from("TPLIDX01");
const MAX_HEADER_BYTES = 64 * 1024;
const WITNESS_BYTES = 4096;

interface Witness {
  at: number;
  len: number;
  sha256: string;
}

interface Header {
  path: string;
  dev: string;
  ino: string;
  size: number;
  mtimeNs: string;
  ctimeNs: string;
  base: number;
  encoding: TextEncoding;
  chunkBytes: number;
  chunks: number;
  endian: string;
  witnesses: Witness[];
  payloadSha256: string;
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

/** The store's folder, created 0700 and checked to be the user's own; undefined when unusable. */
const storeDir = (env: NodeJS.ProcessEnv) => ownCacheDir(env, "line-index");

const sidecarName = (real: string) => `${sha256(real).slice(0, 40)}.idx`;

/** Witness ranges over the indexed bytes [base, end): start, middle and end. */
function witnessRanges(base: number, end: number): { at: number; len: number }[] {
  const span = end - base;
  if (span <= 0) return [];
  const len = Math.min(WITNESS_BYTES, span);
  const starts = [base, base + Math.floor((span - len) / 2), end - len];
  return [...new Set(starts)].map((at) => ({ at, len }));
}

async function witnessHash(fh: FileHandle, at: number, len: number): Promise<string | undefined> {
  const buf = Buffer.allocUnsafe(len);
  const got = await readFully(fh, buf, at);
  return got === len ? sha256(buf) : undefined;
}

/**
 * The index saved for this file, if it still describes it (exactly, or as the start of a file
 * that grew); undefined otherwise (a bad or stale sidecar is removed).
 */
export async function loadSidecar(
  fh: FileHandle,
  real: string,
  st: BigIntStats,
  base: number,
  encoding: TextEncoding,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LineIndex | undefined> {
  const dir = await storeDir(env);
  if (dir === undefined) return undefined;
  const file = path.join(dir, sidecarName(real));
  const size = Number(st.size);
  let data: Buffer;
  try {
    const sst = await stat(file);
    // a sidecar of a file this size is at most its header and one count per chunk
    if (sst.size > MAGIC.length + 4 + MAX_HEADER_BYTES + (Math.ceil(size / CHUNK_BYTES) + 1) * 8) {
      await discard(file);
      return undefined;
    }
    const h = await open(file, "r");
    try {
      data = Buffer.allocUnsafe(sst.size);
      if ((await readFully(h, data, 0)) !== sst.size) return undefined;
    } finally {
      await h.close();
    }
  } catch {
    return undefined;
  }
  const parsed = parseSidecar(data);
  if (parsed === undefined || !describes(parsed.header, real, st, base, encoding)) {
    await discard(file);
    return undefined;
  }
  const { header, counts } = parsed;
  // unchanged: every chunk counts; grown: the last chunk was cut short by the old end, so only
  // the chunks that were whole are kept and scanning resumes from the last of them
  const sameVersion = header.size === size && header.mtimeNs === String(st.mtimeNs);
  const usable = sameVersion ? header.chunks : Math.floor((header.size - base) / CHUNK_BYTES);
  for (const w of header.witnesses) {
    if ((await witnessHash(fh, w.at, w.len)) !== w.sha256) {
      await discard(file);
      return undefined;
    }
  }
  touch(file);
  return LineIndex.seeded(size, base, encoding, counts.subarray(0, usable));
}

function parseSidecar(data: Buffer): { header: Header; counts: Float64Array } | undefined {
  try {
    if (data.length < MAGIC.length + 4 || !data.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const headerBytes = data.readUInt32LE(MAGIC.length);
    if (headerBytes > MAX_HEADER_BYTES) return undefined;
    const at = MAGIC.length + 4;
    const header = JSON.parse(data.toString("utf8", at, at + headerBytes)) as Header;
    const payload = data.subarray(at + headerBytes);
    if (
      header.chunkBytes !== CHUNK_BYTES ||
      header.endian !== endianness() ||
      !Number.isSafeInteger(header.chunks) ||
      header.chunks < 0 ||
      payload.length !== header.chunks * 8 ||
      sha256(payload) !== header.payloadSha256 ||
      !Array.isArray(header.witnesses)
    )
      return undefined;
    const counts = new Float64Array(header.chunks);
    for (let i = 0; i < header.chunks; i++) counts[i] = payload.readDoubleLE(i * 8);
    // running counts: whole, never falling, at most one newline per byte of what they cover
    let previous = 0;
    for (let i = 0; i < counts.length; i++) {
      const c = counts[i]!;
      if (!Number.isInteger(c) || c < previous || c > (i + 1) * CHUNK_BYTES) return undefined;
      previous = c;
    }
    return { header, counts };
  } catch {
    return undefined;
  }
}

/** The header names this file (path, device, inode) at this size or an earlier one. */
function describes(h: Header, real: string, st: BigIntStats, base: number, encoding: TextEncoding): boolean {
  const size = Number(st.size);
  if (h.path !== real || h.dev !== String(st.dev) || h.ino !== String(st.ino)) return false;
  if (h.base !== base || h.encoding !== encoding || !Number.isSafeInteger(h.size) || h.size > size)
    return false;
  // the chunks cover no more than the file had
  if (h.chunks > Math.ceil(Math.max(0, h.size - base) / CHUNK_BYTES)) return false;
  if (h.size === size) return h.mtimeNs === String(st.mtimeNs) && h.ctimeNs === String(st.ctimeNs);
  return true;
}

/** Saves what `index` learnt of this version of the file; never fails the read that called it. */
export async function saveSidecar(
  fh: FileHandle,
  real: string,
  st: BigIntStats,
  index: LineIndex,
  encoding: TextEncoding,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  try {
    const dir = await storeDir(env);
    if (dir === undefined || index.scannedChunks === 0) return;
    const size = Number(st.size);
    const counts = index.counts();
    const end = Math.min(size, index.base + counts.length * CHUNK_BYTES);
    const witnesses: Witness[] = [];
    for (const r of witnessRanges(index.base, end)) {
      const hash = await witnessHash(fh, r.at, r.len);
      if (hash === undefined) return; // the file shrank under us: nothing worth keeping
      witnesses.push({ ...r, sha256: hash });
    }
    const payload = Buffer.allocUnsafe(counts.length * 8);
    for (let i = 0; i < counts.length; i++) payload.writeDoubleLE(counts[i]!, i * 8);
    const header: Header = {
      path: real,
      dev: String(st.dev),
      ino: String(st.ino),
      size,
      mtimeNs: String(st.mtimeNs),
      ctimeNs: String(st.ctimeNs),
      base: index.base,
      encoding,
      chunkBytes: CHUNK_BYTES,
      chunks: counts.length,
      endian: endianness(),
      witnesses,
      payloadSha256: sha256(payload),
    };
    const json = Buffer.from(JSON.stringify(header));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(json.length);
    const file = path.join(dir, sidecarName(real));
    // written whole under a temporary name, then renamed over: a reader sees the old or the new
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    const h = await open(temp, "wx", 0o600);
    try {
      await h.writeFile(Buffer.concat([MAGIC, length, json, payload]));
    } finally {
      await h.close();
    }
    await rename(temp, file).catch(async () => discard(temp));
    await evict(dir);
  } catch {
    // a cache: a failed save costs the next process a scan, nothing more
  }
}

/** Keeps the store within its bounds, dropping the sidecars used longest ago first. */
export async function evict(
  dir: string,
  maxBytes = MAX_STORE_BYTES,
  maxFiles = MAX_STORE_FILES,
): Promise<void> {
  const names = (await readdir(dir)).filter((n) => n.endsWith(".idx") || n.endsWith(".tmp"));
  const files: { file: string; bytes: number; used: number }[] = [];
  const now = Date.now();
  for (const n of names) {
    const file = path.join(dir, n);
    const st = await stat(file).catch(() => undefined);
    if (st === undefined) continue;
    // a temporary file left by a process that died mid-write
    if (n.endsWith(".tmp")) {
      if (now - st.mtimeMs > 60_000) await discard(file);
      continue;
    }
    files.push({ file, bytes: st.size, used: st.mtimeMs });
  }
  let bytes = files.reduce((s, f) => s + f.bytes, 0);
  let count = files.length;
  if (bytes <= maxBytes && count <= maxFiles) return;
  files.sort((a, b) => a.used - b.used);
  for (const f of files) {
    if (bytes <= maxBytes && count <= maxFiles) break;
    await discard(f.file);
    bytes -= f.bytes;
    count--;
  }
}

/** Marks a sidecar as just used (eviction goes by modification time). */
function touch(file: string): void {
  const now = new Date();
  utimes(file, now, now).catch(() => {});
}

async function discard(file: string): Promise<void> {
  await unlink(file).catch(() => {});
}
