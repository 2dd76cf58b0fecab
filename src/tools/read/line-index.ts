import type { FileHandle } from "node:fs/promises";
import { type NewlineCounter, SCAN_BUFFER_BYTES, withNewlineCounter } from "../../util/count-newlines.js";
import { withBlock } from "./blocks.js";
import type { TextEncoding } from "./sniff.js";

/** Bytes per index chunk: finding a line reads at most one chunk past the lookup. */
export const CHUNK_BYTES = 64 * 1024;
/** Bytes read per system call while extending the index (a multiple of CHUNK_BYTES). */
const SCAN_BYTES = SCAN_BUFFER_BYTES;
/** Line starts remembered from earlier pages, so paging forward starts where the last page ended. */
const MAX_HINTS = 64;

/** The newline code unit of an encoding and its width in bytes. */
export function newlineUnit(encoding: TextEncoding): { bytes: Buffer; width: 1 | 2 } {
  if (encoding === "utf-16le") return { bytes: Buffer.from([0x0a, 0x00]), width: 2 };
  if (encoding === "utf-16be") return { bytes: Buffer.from([0x00, 0x0a]), width: 2 };
  return { bytes: Buffer.from([0x0a]), width: 1 };
}

/**
 * Where each line of one version of a file starts, learnt lazily. The file is cut into fixed
 * chunks; for each scanned chunk the index keeps the running count of newlines, so the chunk
 * holding line N is a binary search (an order-statistics lookup over the counts) and only that
 * chunk is read to find the exact byte. Chunks are scanned front to back and only as far as a
 * read needs: a page near the start of a huge file never touches the rest.
 */
export class LineIndex {
  /** cumulative[i]: newlines in chunks 0..i. Float64 holds exact counts far past 2^32. */
  private cumulative = new Float64Array(1024);
  private chunks = 0;
  private readonly hints = new Map<number, number>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly unit: Buffer;
  private readonly width: 1 | 2;

  constructor(
    /** Bytes of the file version this index describes. */
    readonly size: number,
    /** Bytes before the first line (a BOM). */
    readonly base: number,
    encoding: TextEncoding,
  ) {
    const u = newlineUnit(encoding);
    this.unit = u.bytes;
    this.width = u.width;
  }

  /**
   * An index of a newer version of the same file seeded with counts learnt before (the on-disk
   * sidecar, or the previous version of a file that only grew): `counts` are running newline
   * counts of whole chunks from `base`, already checked by the caller against this file's bytes.
   */
  static seeded(size: number, base: number, encoding: TextEncoding, counts: Float64Array): LineIndex {
    const index = new LineIndex(size, base, encoding);
    const usable = Math.min(counts.length, Math.ceil(Math.max(0, size - base) / CHUNK_BYTES));
    index.grow(usable);
    index.cumulative.set(counts.subarray(0, usable));
    index.chunks = usable;
    return index;
  }

  /** The running counts of the chunks scanned so far (a copy), for the on-disk sidecar. */
  counts(): Float64Array {
    return this.cumulative.slice(0, this.chunks);
  }

  /** Chunks scanned so far. */
  get scannedChunks(): number {
    return this.chunks;
  }

  /** Bytes scanned so far (for tests and benchmarks). */
  get scannedBytes(): number {
    return Math.min(this.chunks * CHUNK_BYTES, this.size - this.base);
  }

  get complete(): boolean {
    return this.base + this.chunks * CHUNK_BYTES >= this.size;
  }

  /**
   * Byte offset where line `n` (1-based) starts, or undefined when the file has fewer than n - 1
   * newlines. The line exists when the offset is below `size`.
   */
  lineStart(fh: FileHandle, n: number, signal?: AbortSignal): Promise<number | undefined> {
    return this.serial(() => this.findLineStart(fh, n, signal));
  }

  /** Number of lines: newlines, plus one for a last line without a newline. Scans to the end. */
  lineCount(fh: FileHandle, signal?: AbortSignal): Promise<number> {
    return this.serial(async () => {
      await this.scanUntil(fh, () => false, signal);
      const newlines = this.newlinesIndexed();
      if (this.size <= this.base) return 0;
      const last = Buffer.alloc(this.width);
      await fh.read(last, 0, this.width, this.size - this.width);
      return last.equals(this.unit) ? newlines : newlines + 1;
    });
  }

  /** Remembers that line `n` starts at `offset` (learnt while reading a page). */
  remember(n: number, offset: number): void {
    if (this.hints.size >= MAX_HINTS) this.hints.delete(this.hints.keys().next().value as number);
    this.hints.set(n, offset);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    // one extension at a time: two reads of the same file must not scan the same chunk twice
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private newlinesIndexed(): number {
    return this.chunks === 0 ? 0 : this.cumulative[this.chunks - 1]!;
  }

  private async findLineStart(fh: FileHandle, n: number, signal?: AbortSignal): Promise<number | undefined> {
    if (n <= 1) return this.base;
    const hinted = this.hints.get(n);
    if (hinted !== undefined) return hinted;
    const need = n - 1;
    await this.scanUntil(fh, () => this.newlinesIndexed() >= need, signal);
    if (this.newlinesIndexed() < need) return undefined;
    // smallest chunk whose running count reaches `need`
    let lo = 0;
    let hi = this.chunks - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid]! >= need) hi = mid;
      else lo = mid + 1;
    }
    const before = lo === 0 ? 0 : this.cumulative[lo - 1]!;
    const start = this.base + lo * CHUNK_BYTES;
    const len = Math.min(CHUNK_BYTES, this.size - start);
    const found = await withBlock(async (block) => {
      const buf = block.subarray(0, len);
      const got = await readFully(fh, buf, start);
      let k = need - before;
      for (let p = this.find(buf, 0, got); p !== -1; p = this.find(buf, p + this.width, got)) {
        if (--k === 0) return start + p + this.width;
      }
      return undefined;
    });
    if (found !== undefined) return found;
    // the file changed under a cached index: the caller's version check will rebuild it
    throw new Error("the file changed while it was being read: read it again");
  }

  /**
   * Extends the index block by block until `done()`. Two buffers: the next block is read (on
   * libuv's thread pool) while this one is counted, so reading and counting overlap. The buffers
   * live for one scan: a fresh buffer per block would leave ~1 GiB of garbage on a deep read.
   */
  private async scanUntil(fh: FileHandle, done: () => boolean, signal?: AbortSignal): Promise<void> {
    if (done() || this.complete) return;
    await withNewlineCounter(async (counter) => {
      const { buffers } = counter;
      let at = this.base + this.chunks * CHUNK_BYTES;
      let pending = this.readBlock(fh, buffers[0], at);
      let inFlight: Promise<unknown> | undefined;
      try {
        for (let i = 1; ; i++) {
          const { buf, got } = await pending;
          at += got;
          const more = at < this.size;
          if (more) inFlight = pending = this.readBlock(fh, buffers[i % 2]!, at);
          else inFlight = undefined;
          this.record(buf, got, counter);
          if (!more || done()) return;
          // what was scanned stays in the index: a retry resumes here
          signal?.throwIfAborted();
        }
      } finally {
        // the caller closes the file next and the buffers are reused: let the last read land
        await inFlight?.catch(() => undefined);
      }
    });
  }

  private async readBlock(
    fh: FileHandle,
    scratch: Buffer,
    at: number,
  ): Promise<{ buf: Buffer; got: number }> {
    const len = Math.min(SCAN_BYTES, this.size - at);
    const buf = scratch.subarray(0, len);
    const got = await readFully(fh, buf, at);
    if (got < len) throw new Error("the file shrank while it was being read: read it again");
    return { buf, got };
  }

  /** Records the newlines of one scanned block that starts where the index ends. */
  private record(buf: Buffer, got: number, counter: NewlineCounter): void {
    const nChunks = Math.ceil(got / CHUNK_BYTES);
    this.grow(this.chunks + nChunks);
    const counts = new Float64Array(nChunks);
    if (this.width === 1) {
      for (let c = 0; c < nChunks; c++) {
        counts[c] = counter.count(buf, c * CHUNK_BYTES, Math.min(got, (c + 1) * CHUNK_BYTES));
      }
    } else {
      for (let p = this.find(buf, 0, got); p !== -1; p = this.find(buf, p + 2, got)) {
        counts[Math.floor(p / CHUNK_BYTES)]!++;
      }
    }
    let running = this.newlinesIndexed();
    for (let i = 0; i < nChunks; i++) {
      running += counts[i]!;
      this.cumulative[this.chunks + i] = running;
    }
    this.chunks += nChunks;
  }

  /** Next newline unit at or after `from` that starts on a code-unit boundary, or -1. */
  private find(buf: Buffer, from: number, end: number): number {
    let p = buf.indexOf(this.unit, from);
    while (p !== -1 && p % this.width !== 0) p = buf.indexOf(this.unit, p + 1);
    return p === -1 || p >= end ? -1 : p;
  }

  private grow(n: number): void {
    if (n <= this.cumulative.length) return;
    let cap = this.cumulative.length;
    while (cap < n) cap *= 2;
    const next = new Float64Array(cap);
    next.set(this.cumulative.subarray(0, this.chunks));
    this.cumulative = next;
  }
}

/** Reads until `buf` is full or the file ends; returns the bytes read. */
export async function readFully(fh: FileHandle, buf: Buffer, position: number): Promise<number> {
  let got = 0;
  while (got < buf.length) {
    const { bytesRead } = await fh.read(buf, got, buf.length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got;
}
