import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type CallToolResult, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { DEFAULT_START_TIMEOUT_MS, isStdio, MCP_IMPLEMENTATION, type McpServerConfig } from "../config.js";
import { Diagnostics } from "./diagnostics.js";

/** A tool as a server lists it, before any checking: servers send what they like. */
export interface RemoteTool {
  name: string;
  description?: string;
  title?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  execution?: { taskSupport?: string };
}

// Loose on purpose: the SDK's own list schema rejects the whole page when one tool is malformed;
// toolplane checks each tool itself so one bad tool does not hide the server's others.
const LooseListSchema = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/** How long a stdio server may take to exit after its input closes before it gets SIGTERM. */
const STOP_GRACE_MS = 200;

/** Pages are bounded so a server that keeps returning a cursor cannot loop forever. */
const MAX_PAGES = 1000;

export interface ConnectionEvents {
  /** The server sent notifications/tools/list_changed. */
  toolsChanged(): void;
  /** The connection closed without toolplane asking (crash, network). */
  lost(reason: string): void;
}

/** One live session with one MCP server: start-up, listing, calls, and what went wrong. */
export class McpConnection {
  readonly diagnostics = new Diagnostics();
  private client: Client | undefined;
  private transport: Transport | undefined;
  private closing = false;

  constructor(
    readonly server: string,
    readonly config: McpServerConfig,
    private readonly events: ConnectionEvents,
  ) {}

  get pid(): number | null {
    return this.transport instanceof StdioClientTransport ? this.transport.pid : null;
  }

  /** Starts (or connects to) the server and initialises the session, within the start timeout. */
  async connect(): Promise<void> {
    const timeout = this.config.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    const client = new Client(MCP_IMPLEMENTATION, { capabilities: {} });
    const transport = this.makeTransport();
    client.onerror = (error) => this.diagnostics.error(error);
    client.onclose = () => {
      if (this.client === client && !this.closing) {
        this.client = undefined;
        this.events.lost(`the connection closed${this.diagnostics.describe()}`);
      }
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.events.toolsChanged());
    this.client = client;
    this.transport = transport;
    try {
      await withDeadline(client.connect(transport, { timeout }), timeout, "did not finish initialize");
    } catch (error) {
      this.client = undefined;
      await this.closeQuietly(client);
      throw new Error(
        `${this.describeTarget()} failed to start: ${messageOf(error)}${this.diagnostics.describe()}`,
      );
    }
  }

  get connected(): boolean {
    return this.client !== undefined;
  }

  /** tools/list, following nextCursor to the end. */
  async listTools(timeoutMs: number): Promise<unknown[]> {
    const client = this.requireClient();
    const tools: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const params = cursor === undefined ? {} : { cursor };
      const result = await client.request({ method: "tools/list", params }, LooseListSchema, {
        timeout: timeoutMs,
      });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined || cursor === "") return tools;
    }
    throw new Error(
      `${this.describeTarget()} kept returning a nextCursor after ${MAX_PAGES} pages of tools/list`,
    );
  }

  async callTool(
    rawName: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<CallToolResult> {
    const client = this.requireClient();
    const result = await client.callTool({ name: rawName, arguments: args }, undefined, {
      signal: options.signal,
      timeout: options.timeoutMs,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: options.timeoutMs,
    });
    return result as CallToolResult;
  }

  async close(): Promise<void> {
    this.closing = true;
    const client = this.client;
    const pid = this.pid;
    this.client = undefined;
    if (!client) return;
    // The SDK ends stdin and waits 2 s before SIGTERM; many servers never exit on end of input,
    // so a short grace keeps every CLI command from paying those 2 s.
    const grace = setTimeout(() => {
      if (pid !== null) {
        try {
          process.kill(pid, "SIGTERM");
        } catch {
          // already exited
        }
      }
    }, STOP_GRACE_MS);
    grace.unref?.();
    await this.closeQuietly(client);
    clearTimeout(grace);
  }

  describeTarget(): string {
    const c = this.config;
    const target = isStdio(c) ? [c.command, ...(c.args ?? [])].join(" ") : c.url;
    return `MCP server "${this.server}" (${target})`;
  }

  private requireClient(): Client {
    if (!this.client) throw new Error(`${this.describeTarget()} is not connected`);
    return this.client;
  }

  private makeTransport(): Transport {
    const c = this.config;
    if (isStdio(c)) {
      const params: ConstructorParameters<typeof StdioClientTransport>[0] = {
        command: c.command,
        args: c.args ?? [],
        stderr: "pipe",
      };
      if (c.env) params.env = { ...defaultEnv(), ...c.env };
      if (c.cwd) params.cwd = c.cwd;
      const transport = new StdioClientTransport(params);
      transport.stderr?.on("data", (chunk: Buffer) => this.diagnostics.stderr(chunk.toString("utf8")));
      return transport;
    }
    const init: RequestInit = {};
    if (c.headers) init.headers = c.headers;
    return new StreamableHTTPClientTransport(new URL(c.url), { requestInit: init });
  }

  private async closeQuietly(client: Client): Promise<void> {
    try {
      await client.close();
    } catch {
      // already gone: nothing to release
    }
  }
}

/** PATH and HOME reach the server even when the config sets env (the SDK's own default set). */
function defaultEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"]) {
    const value = process.env[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Rejects after `ms` even when the inner promise never settles (a peer that never answers). */
async function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
    timer.unref?.();
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
