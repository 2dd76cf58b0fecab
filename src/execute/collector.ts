import type { OutputStream } from "../declare/types.js";
import { countNewlines } from "./preview.js";
import type { SpillWriter } from "./spill.js";

export interface CollectorOptions {
  inlineMaxBytes: number;
  /** Bytes kept at each end for the preview once the output spills. */
  previewBytes: number;
  /** Past this many bytes the output is stopped (and the cut said). */
  spillMaxBytes: number;
  /** Opens the spill file; undefined when the tool opted out of spilling. */
  openSpill?: () => Promise<SpillWriter>;
  /** Called once when the output was stopped at spillMaxBytes, to abort the tool. */
  onStop?: () => void;
}

export interface Collected {
  totalBytes: number;
  newlines: number;
  endsWithNewline: boolean;
  /** The whole output, when it fit inline. */
  inline?: Buffer;
  /** First bytes (for the preview, or the part kept when the tool does not spill). */
  head: Buffer;
  tail: Buffer;
  spillPath?: string;
  /** True when output past spillMaxBytes was dropped. */
  stopped: boolean;
  /** True when the tool does not spill and bytes past the inline limit were dropped. */
  dropped: boolean;
}

// Small writes are gathered into blocks of this size: one syscall per block, not per chunk.
const BLOCK = 1024 * 1024;
const DIRECT = BLOCK;

/**
 * The sink a streaming tool writes to. Output stays in memory only up to the inline limit; past
 * it, everything goes to a spill file as it arrives and only the head and a tail ring are kept,
 * so memory stays near inline + preview no matter how much the tool writes. Writes are awaited:
 * a tool that awaits them is held back to the disk's pace.
 */
export class OutputCollector implements OutputStream {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private total = 0;
  private newlines = 0;
  private lastByte = -1;
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private writer: SpillWriter | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private stopped = false;
  private dropped = false;
  private closed = false;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly options: CollectorOptions) {}

  get bytes(): number {
    return this.total;
  }

  write(chunk: string | Uint8Array): Promise<void> {
    // serialised: a tool that does not await its writes still gets them in order
    const next = this.chain.then(() => this.append(chunk));
    this.chain = next.catch(() => {});
    return next;
  }

  private async append(chunk: string | Uint8Array): Promise<void> {
    if (this.closed || this.stopped) return;
    let buf = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : toBuffer(chunk);
    if (buf.length === 0) return;
    const room = this.options.spillMaxBytes - this.total;
    if (buf.length > room) {
      buf = buf.subarray(0, Math.max(0, room));
      this.stopped = true;
      this.options.onStop?.();
    }
    this.total += buf.length;
    this.newlines += countNewlines(buf);
    if (buf.length > 0) this.lastByte = buf[buf.length - 1]!;

    if (this.writer === undefined && !this.dropped) {
      if (this.buffered + buf.length <= this.options.inlineMaxBytes) {
        this.chunks.push(Buffer.from(buf));
        this.buffered += buf.length;
        return;
      }
      await this.overflow();
    }
    this.keepHead(buf);
    this.keepTail(buf);
    if (this.writer) await this.toFile(buf);
  }

  /** Bytes kept from the start: the preview's head when spilling, the part shown when not. */
  private headWant(): number {
    return this.writer ? this.options.previewBytes : this.options.inlineMaxBytes;
  }

  private keepHead(buf: Buffer): void {
    const room = this.headWant() - this.head.length;
    if (room > 0) this.head = Buffer.concat([this.head, buf.subarray(0, room)]);
  }

  /** Past the inline limit: open the spill file (or start dropping) and keep only the head. */
  private async overflow(): Promise<void> {
    const all = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [];
    this.buffered = 0;
    this.head = Buffer.from(
      all.subarray(0, Math.max(this.options.previewBytes, this.options.inlineMaxBytes)),
    );
    if (this.options.openSpill) {
      this.writer = await this.options.openSpill();
      if (all.length > 0) await this.toFile(all);
    } else {
      this.dropped = true;
    }
    this.keepTail(all);
    // the head for the preview is at most previewBytes when spilling; the non-spill cut keeps inline
    if (this.writer) this.head = Buffer.from(this.head.subarray(0, this.options.previewBytes));
  }

  private keepTail(buf: Buffer): void {
    const want = this.options.previewBytes;
    if (buf.length >= want) {
      this.tail = [Buffer.from(buf.subarray(buf.length - want))];
      this.tailBytes = want;
      return;
    }
    this.tail.push(Buffer.from(buf));
    this.tailBytes += buf.length;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.length >= want) {
      this.tailBytes -= this.tail.shift()!.length;
    }
  }

  private async toFile(buf: Buffer): Promise<void> {
    if (buf.length >= DIRECT && this.pendingBytes === 0) {
      await this.writer!.write([buf]);
      return;
    }
    this.pending.push(Buffer.from(buf));
    this.pendingBytes += buf.length;
    if (this.pendingBytes >= BLOCK) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const blocks = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    await this.writer!.write(blocks);
  }

  /** Ends the output: commits the spill file, and returns what was collected. */
  async finish(): Promise<Collected> {
    await this.chain;
    this.closed = true;
    let spillPath: string | undefined;
    if (this.writer) {
      try {
        await this.flush();
        spillPath = await this.writer.commit();
      } catch (error) {
        await this.writer.discard();
        throw error;
      }
    }
    const inline =
      this.writer === undefined && !this.dropped ? Buffer.concat(this.chunks, this.buffered) : undefined;
    const tail = Buffer.concat(this.tail, this.tailBytes);
    const out: Collected = {
      totalBytes: this.total,
      newlines: this.newlines,
      endsWithNewline: this.lastByte === 10,
      head: inline ?? this.head,
      tail: inline ?? tail,
      stopped: this.stopped,
      dropped: this.dropped,
    };
    if (inline) out.inline = inline;
    if (spillPath) out.spillPath = spillPath;
    return out;
  }

  /** Drops a half-written spill file (the call failed before its output meant anything). */
  async abandon(): Promise<void> {
    await this.chain;
    this.closed = true;
    await this.writer?.discard();
  }
}

function toBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}
