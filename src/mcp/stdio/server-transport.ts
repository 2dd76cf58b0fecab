import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { baseSdk, loadBaseSdk } from "../sdk.js";
import { checkIncoming, type ErrorReply, tooLarge } from "./incoming.js";
import { LineSplitter } from "./lines.js";

export interface StdioServerOptions {
  /** The largest message read from the client; a larger one is answered with an error. */
  maxMessageBytes: number;
  /** The configuration key that sets maxMessageBytes, named in that error. */
  limitKey: string;
  /** Where a refused message is noted for people (stderr). */
  log?: (line: string) => void;
}

/**
 * The server side of MCP's stdio transport. It replaces the SDK's StdioServerTransport, which
 * closed the session (and `toolplane serve` exited 0, saying nothing) on one message over 10 MiB,
 * and answered nothing to a line that was not a valid message. Here an oversized message, a batch,
 * a message without `"jsonrpc"` or with non-object `params` each get a JSON-RPC error, and the
 * session goes on.
 */
export class BoundedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly lines: LineSplitter;
  private started = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly options: StdioServerOptions,
  ) {
    this.lines = new LineSplitter(options.maxMessageBytes, {
      line: (text) => this.receive(text),
      oversized: ({ bytes, id }) =>
        this.refuse([tooLarge(id, bytes, options.maxMessageBytes, options.limitKey)]),
    });
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("the stdio transport was already started");
    this.started = true;
    await loadBaseSdk();
    this.stdin.on("data", this.onData);
    this.stdin.on("error", this.onError);
  }

  send(message: JSONRPCMessage | ErrorReply): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(baseSdk().serializeMessage(message as JSONRPCMessage))) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onError);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.lines.clear();
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer) => this.lines.push(chunk);
  private readonly onError = (error: Error) => this.onerror?.(error);

  private receive(text: string): void {
    const checked = checkIncoming(text);
    if (checked.ok) this.onmessage?.(checked.message);
    else this.refuse(checked.replies);
  }

  private refuse(replies: ErrorReply[]): void {
    const first = replies[0];
    if (first) this.options.log?.(`toolplane serve: refused a message: ${first.error.message}`);
    for (const reply of replies) this.send(reply).catch((error) => this.onerror?.(error as Error));
  }
}
