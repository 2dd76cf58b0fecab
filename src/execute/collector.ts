import type { OutputStream } from "../declare/types.js";
import { countNewlinesIn } from "../util/count-newlines.js";
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

// Writes smaller than a block are gathered into one: one syscall per block, not per chunk.
const BLOCK = 1024 * 1024;

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
  private tail: TailRing;
  private writer: SpillWriter | undefined;
  /** Small writes are copied into this one block: no allocation per chunk, one syscall per block. */
  private block: Buffer | undefined;
  private blockUsed = 0;
  private stopped = false;
  private dropped = false;
  private closed = false;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly options: CollectorOptions) {
    this.tail = new TailRing(options.previewBytes);
  }

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
    this.newlines += countNewlinesIn(buf);
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
    this.tail.push(buf);
  }

  private async toFile(buf: Buffer): Promise<void> {
    if (this.blockUsed === 0 && buf.length >= BLOCK) {
      await this.writer!.write([buf]);
      return;
    }
    this.block ??= Buffer.allocUnsafe(BLOCK);
    let from = 0;
    while (from < buf.length) {
      const n = buf.copy(this.block, this.blockUsed, from);
      this.blockUsed += n;
      from += n;
      // the block is reused only after its write resolved: writes are serialised
      if (this.blockUsed === BLOCK) await this.flush();
    }
  }

  private async flush(): Promise<void> {
    if (this.blockUsed === 0 || !this.block) return;
    const used = this.blockUsed;
    this.blockUsed = 0;
    await this.writer!.write([this.block.subarray(0, used)]);
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
    const tail = this.tail.contents();
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

/** The last `size` bytes seen, in a fixed buffer (no allocation per chunk). */
class TailRing {
  private readonly ring: Buffer;
  private pos = 0;
  private filled = 0;

  constructor(readonly size: number) {
    this.ring = Buffer.alloc(Math.max(1, size));
  }

  push(buf: Buffer): void {
    const size = this.ring.length;
    if (buf.length >= size) {
      buf.copy(this.ring, 0, buf.length - size);
      this.pos = 0;
      this.filled = size;
      return;
    }
    const first = Math.min(buf.length, size - this.pos);
    buf.copy(this.ring, this.pos, 0, first);
    buf.copy(this.ring, 0, first);
    this.pos = (this.pos + buf.length) % size;
    this.filled = Math.min(size, this.filled + buf.length);
  }

  contents(): Buffer {
    if (this.filled < this.ring.length) return Buffer.from(this.ring.subarray(0, this.filled));
    return Buffer.concat([this.ring.subarray(this.pos), this.ring.subarray(0, this.pos)]);
  }
}

function toBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}
