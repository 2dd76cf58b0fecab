import { type ChildProcess, spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { baseSdk, loadClientSdk } from "../sdk.js";
import { LineSplitter, type OversizedMessage } from "./lines.js";

/** The JSON-RPC error code of a server answer toolplane refused to read because of its size. */
export const MESSAGE_TOO_LARGE = -32_098;

export interface StdioServerParams {
  command: string;
  args?: readonly string[];
  /** Added to the SDK's default set (HOME, LOGNAME, PATH, SHELL, TERM, USER). */
  env?: Record<string, string>;
  cwd?: string;
  /** The largest message read from the server; a larger answer fails its one request. */
  maxMessageBytes: number;
}

/**
 * How long the server may take to exit after its input closes, then after SIGTERM. The SDK's own
 * transport waits 2 s each; many servers never exit on end of input, so every CLI command that
 * closes one would pay those 2 s.
 */
const EXIT_WAIT_MS = 200;

/**
 * Every server process this module started and that has not exited. When toolplane's process
 * ends without closing its clients (process.exit, an uncaught error), they are killed: a server
 * that ignores the end of its input would otherwise outlive it.
 */
const live = new Set<ChildProcess>();
let exitHooked = false;

function track(child: ChildProcess): void {
  live.add(child);
  // a spawn that failed (ENOENT) emits 'close' but no 'exit': drop it either way
  child.once("exit", () => live.delete(child));
  child.once("close", () => live.delete(child));
  if (exitHooked) return;
  exitHooked = true;
  // 'exit' handlers must be synchronous: no time for a grace period, so SIGKILL
  process.once("exit", () => {
    for (const c of live) {
      try {
        c.kill("SIGKILL");
      } catch {
        // already gone
      }
    }
  });
}

/**
 * The client side of MCP's stdio transport: spawns the server and speaks newline-delimited JSON-RPC.
 * It replaces the SDK's StdioClientTransport only to read through LineSplitter: there, a result
 * over 10 MiB closed the connection ("Connection closed") and every other call with it; here that
 * one request gets an error naming the size and the limit, and the session stays up.
 */
export class BoundedStdioClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr, available before start so nothing it writes early is lost. */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  private readonly lines: LineSplitter;

  constructor(private readonly params: StdioServerParams) {
    this.lines = new LineSplitter(params.maxMessageBytes, {
      line: (text) => this.deliver(text),
      oversized: (message) => this.refuse(message),
    });
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Raises or lowers the message limit for what arrives from now on. */
  set maxMessageBytes(bytes: number) {
    this.lines.maxBytes = bytes;
  }

  get maxMessageBytes(): number {
    return this.lines.maxBytes;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error("the stdio transport was already started");
    const { getDefaultEnvironment } = await loadClientSdk();
    const p = this.params;
    return new Promise((resolve, reject) => {
      const child = spawn(p.command, [...(p.args ?? [])], {
        env: { ...getDefaultEnvironment(), ...p.env },
        stdio: ["pipe", "pipe", "pipe"],
        shell: false,
        windowsHide: true,
        ...(p.cwd ? { cwd: p.cwd } : {}),
      });
      this.child = child;
      track(child);
      child.on("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on("spawn", () => resolve());
      child.on("close", () => {
        if (this.child === child) this.child = undefined;
        this.lines.clear();
        this.onclose?.();
      });
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => this.lines.push(chunk));
      child.stdout?.on("error", (error) => this.onerror?.(error));
      child.stderr?.pipe(this.stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) return Promise.reject(new Error("Not connected"));
    return new Promise((resolve) => {
      if (stdin.write(baseSdk().serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Ends the server's input, then SIGTERM, then SIGKILL, as the SDK does. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
    const waitExit = () =>
      Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, EXIT_WAIT_MS).unref())]);
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    await waitExit();
    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      if (child.exitCode !== null || child.signalCode !== null) break;
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
      if (signal === "SIGTERM") await waitExit();
    }
  }

  private deliver(text: string): void {
    let message: JSONRPCMessage;
    try {
      message = baseSdk().deserializeMessage(text);
    } catch (error) {
      this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(message);
  }

  /**
   * An answer too large to read fails its own request; a request from the server gets an error
   * back; anything else too large is reported and skipped.
   */
  private refuse({ bytes, id, hasMethod }: OversizedMessage): void {
    const limit = this.lines.maxBytes;
    const what = `a message of ${bytes} bytes, over the limit of ${limit} bytes (results.rawMaxBytes)`;
    if (id === undefined || hasMethod) {
      this.onerror?.(new Error(`the server sent ${what}; toolplane skipped it`));
      if (id !== undefined) {
        this.send({
          jsonrpc: "2.0",
          id,
          error: { code: MESSAGE_TOO_LARGE, message: `request too large: ${what}` },
        }).catch(() => {});
      }
      return;
    }
    this.onmessage?.({
      jsonrpc: "2.0",
      id,
      error: {
        code: MESSAGE_TOO_LARGE,
        message:
          `the server's answer was ${bytes} bytes, over results.rawMaxBytes (${limit} bytes), so toolplane ` +
          "did not read it. Ask the tool for less (a narrower query, a smaller page), or raise results.rawMaxBytes.",
      },
    });
  }
}
