import { TopLevelIdScanner } from "./top-level-id.js";

/** A message longer than the limit: its size, its top-level id when it had one, and whether it had a method. */
export interface OversizedMessage {
  bytes: number;
  id: string | number | undefined;
  /** A request or notification (it has a top-level "method"), not an answer. */
  hasMethod: boolean;
}

export interface LineSink {
  line(text: string): void;
  oversized(message: OversizedMessage): void;
}

/**
 * Splits a newline-delimited JSON-RPC byte stream into messages, holding at most `maxBytes` of one.
 *
 * The SDK's stdio ReadBuffer concatenates every chunk into one growing Buffer (quadratic for a big
 * message) and, past 10 MiB, throws and closes the whole connection. Here a message over the
 * limit is dropped while it streams: only its size and top-level id are kept, so the one request it
 * belongs to can be answered with an error and the connection goes on.
 */
export class LineSplitter {
  private chunks: Buffer[] = [];
  private held = 0;
  private skipping: { bytes: number; scanner: TopLevelIdScanner } | undefined;

  constructor(
    public maxBytes: number,
    private readonly sink: LineSink,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      this.take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  }

  clear(): void {
    this.chunks = [];
    this.held = 0;
    this.skipping = undefined;
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping) {
      this.skipping.bytes += piece.length;
      this.skipping.scanner.feed(piece);
      return;
    }
    if (this.held + piece.length > this.maxBytes) {
      const scanner = new TopLevelIdScanner();
      for (const held of this.chunks) scanner.feed(held);
      scanner.feed(piece);
      this.skipping = { bytes: this.held + piece.length, scanner };
      this.chunks = [];
      this.held = 0;
      return;
    }
    this.chunks.push(piece);
    this.held += piece.length;
  }

  private endLine(): void {
    const skipped = this.skipping;
    if (skipped) {
      this.skipping = undefined;
      this.sink.oversized({
        bytes: skipped.bytes,
        id: skipped.scanner.id(),
        hasMethod: skipped.scanner.hasMethod(),
      });
      return;
    }
    const bytes =
      this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.held);
    this.chunks = [];
    this.held = 0;
    const text = bytes.toString("utf8");
    const line = text.endsWith("\r") ? text.slice(0, -1) : text;
    if (line.trim() !== "") this.sink.line(line);
  }
}
