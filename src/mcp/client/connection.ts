import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { limitsFrom } from "../../execute/limits.js";
import { withDeadline } from "../../util/deadline.js";
import { DEFAULT_START_TIMEOUT_MS, isStdio, MCP_IMPLEMENTATION, type McpServerConfig } from "../config.js";
import { baseSdk, clientSdk, loadClientSdk } from "../sdk.js";
import { BoundedStdioClientTransport } from "../stdio/client-transport.js";
import { Diagnostics } from "./diagnostics.js";
import { ElicitationAnswerer } from "./elicit-answer.js";
import type { ElicitationHandler } from "./elicitation.js";
import { retryIdleReset } from "./idle-reset.js";
import { isNeedsLogin } from "./oauth/errors.js";
import { type McpLoginHook, type OAuthSession, oauthSessionFor } from "./oauth/session.js";
import { StandaloneStream } from "./standalone-stream.js";

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
// A tools/call result is loose too: the SDK's CallToolResultSchema fails the whole result, valid
// text included, when one content block is of a type it does not know, and puts the schema's every
// complaint in the message; content is checked block by block instead (fromMcpContent).
// Built with the Zod the SDK loaded with it, once it has: a connection exists only after that.
const buildLoose = (z: typeof import("zod").z) => ({
  list: z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() }),
  call: z.looseObject({
    content: z.unknown().optional(),
    structuredContent: z.unknown().optional(),
    isError: z.unknown().optional(),
  }),
  elicit: z.looseObject({ method: z.literal("elicitation/create"), params: z.unknown().optional() }),
});
let loose: ReturnType<typeof buildLoose> | undefined;
const looseSchemas = () => (loose ??= buildLoose(baseSdk().z));

/** A tools/call result, unchecked: see fromMcpContent. */
export interface RawCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
}

/** Pages are bounded so a server that keeps returning a cursor cannot loop forever. */
const MAX_PAGES = 1000;

/** What a connection may use besides the server's configuration. */
export interface ConnectionOptions {
  /** OAuth for an HTTP server (none when its headers carry their own Authorization). */
  oauth?: OAuthSession;
  /** Answers the server's elicitation requests; without it the client does not offer elicitation. */
  onElicitation?: ElicitationHandler;
}

/** A server's connection options: OAuth for an HTTP server without an Authorization header of its own. */
export function connectionOptions(o: {
  server: string;
  config: McpServerConfig;
  loginsDir?: string;
  login?: McpLoginHook;
  onElicitation?: ElicitationHandler;
}): ConnectionOptions {
  const out: ConnectionOptions = {};
  const oauth = oauthSessionFor(o);
  if (oauth) out.oauth = oauth;
  if (o.onElicitation) out.onElicitation = o.onElicitation;
  return out;
}

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
  /** The HTTP transport's standalone stream, which a call waits for (see StandaloneStream). */
  private stream: StandaloneStream | undefined;
  private closing = false;
  /** When initialize finished (ms since the epoch), for telling a crash loop from a crash. */
  connectedAt = 0;
  /** Until a call says otherwise: the default of results.rawMaxBytes. */
  private maxMessageBytes = limitsFrom({}).rawMaxBytes;

  constructor(
    readonly server: string,
    readonly config: McpServerConfig,
    private readonly events: ConnectionEvents,
    private readonly options: ConnectionOptions = {},
  ) {}

  get pid(): number | null {
    return this.transport instanceof BoundedStdioClientTransport ? this.transport.pid : null;
  }

  /**
   * The largest message read from a stdio server (results.rawMaxBytes, as the calling host has it):
   * an answer over it fails its one call and the session stays up.
   */
  limitMessages(bytes: number): void {
    this.maxMessageBytes = bytes;
    if (this.transport instanceof BoundedStdioClientTransport) this.transport.maxMessageBytes = bytes;
  }

  /** Starts (or connects to) the server and initialises the session, within the start timeout. */
  async connect(): Promise<void> {
    const timeout = this.config.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    const sdk = await loadClientSdk();
    // elicitation is offered only when someone can answer it (a terminal, --yes, a harness's hook)
    const onElicitation = this.options.onElicitation;
    const client = new sdk.Client(MCP_IMPLEMENTATION, {
      capabilities: onElicitation ? { elicitation: { form: {} } } : {},
    });
    if (onElicitation) {
      const answerer = new ElicitationAnswerer(this.server, onElicitation);
      // Registered as Protocol's handler, past Client's wrapper: that one answers a schema outside
      // the SDK's union with its whole zod error tree (kilobytes, naming no field), where
      // toolplane's own check (ElicitationAnswerer) names the field and the rule, and checks the answer.
      const register = Object.getPrototypeOf(sdk.Client.prototype)
        .setRequestHandler as Client["setRequestHandler"];
      register.call(client, looseSchemas().elicit, (request, extra) =>
        answerer.answer((request as { params?: unknown }).params, extra.signal),
      );
    }
    const transport = this.makeTransport();
    client.onerror = (error) => this.diagnostics.error(error);
    client.onclose = () => {
      if (this.client === client && !this.closing) {
        this.client = undefined;
        this.events.lost(`the connection closed${this.diagnostics.describe()}`);
      }
    };
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => this.events.toolsChanged());
    this.client = client;
    this.transport = transport;
    try {
      await this.within(
        client.connect(transport, { timeout: timeout + this.loginTimeoutMs }),
        timeout,
        `did not finish initialize within ${timeout} ms`,
      );
      this.connectedAt = Date.now();
    } catch (error) {
      this.client = undefined;
      // the transport stops its process (end of input, SIGTERM, SIGKILL): it must not outlive the failure
      await this.closeQuietly(client);
      // "needs login: toolplane mcp login NAME" is the whole story: not a failure to start
      if (isNeedsLogin(error)) throw error;
      throw new Error(
        `${this.describeTarget()} failed to start: ${messageOf(error)}${this.diagnostics.describe()}`,
      );
    }
  }

  get connected(): boolean {
    return this.client !== undefined;
  }

  /** What the server said at initialize for the model to know (its `instructions`), if anything. */
  get instructions(): string | undefined {
    const text = this.client?.getInstructions();
    return typeof text === "string" && text.trim() !== "" ? text : undefined;
  }

  /** tools/list, following nextCursor to the end. */
  async listTools(timeoutMs: number): Promise<unknown[]> {
    const client = this.requireClient();
    const tools: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const params = cursor === undefined ? {} : { cursor };
      const result = await this.within(
        client.request({ method: "tools/list", params }, looseSchemas().list, {
          timeout: timeoutMs + this.loginTimeoutMs,
        }),
        timeoutMs,
        `did not answer tools/list within ${timeoutMs} ms`,
      );
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
  ): Promise<RawCallResult> {
    const client = this.requireClient();
    await this.stream?.ready();
    return client.request(
      { method: "tools/call", params: { name: rawName, arguments: args } },
      looseSchemas().call,
      {
        signal: options.signal,
        timeout: options.timeoutMs,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: options.timeoutMs,
      },
    );
  }

  async close(): Promise<void> {
    this.closing = true;
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    await this.closeQuietly(client);
  }

  describeTarget(): string {
    const c = this.config;
    const target = isStdio(c) ? [c.command, ...(c.args ?? [])].join(" ") : c.url;
    return `MCP server "${this.server}" (${target})`;
  }

  /** A login at the browser does not count against the server's own timeouts (see OAuthSession.within). */
  private within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
    const oauth = this.options.oauth;
    return oauth ? oauth.within(promise, ms, message) : withDeadline(promise, ms, message);
  }

  private get loginTimeoutMs(): number {
    return this.options.oauth?.loginTimeoutMs ?? 0;
  }

  private requireClient(): Client {
    if (!this.client) throw new Error(`${this.describeTarget()} is not connected`);
    return this.client;
  }

  private makeTransport(): Transport {
    const c = this.config;
    if (isStdio(c)) {
      const transport = new BoundedStdioClientTransport({
        command: c.command,
        args: c.args ?? [],
        maxMessageBytes: this.maxMessageBytes,
        ...(c.env ? { env: c.env } : {}),
        ...(c.cwd ? { cwd: c.cwd } : {}),
      });
      transport.stderr.on("data", (chunk: Buffer) => this.diagnostics.stderr(chunk.toString("utf8")));
      return transport;
    }
    const init: RequestInit = {};
    if (c.headers) init.headers = c.headers;
    const oauth = this.options.oauth;
    const base = retryIdleReset((url, options) => fetch(url, options));
    this.stream = new StandaloneStream(c.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
    return new (clientSdk().StreamableHTTPClientTransport)(new URL(c.url), {
      requestInit: init,
      fetch: this.stream.watch(oauth ? oauth.fetch(base) : base),
    });
  }

  private async closeQuietly(client: Client): Promise<void> {
    try {
      await client.close();
    } catch {
      // already gone: nothing to release
    }
  }
}

export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch's own message is "fetch failed" whatever happened: the cause says what (refused, reset, DNS)
  const cause = error.cause as { message?: unknown; code?: unknown } | undefined;
  const why = typeof cause?.message === "string" && cause.message !== "" ? cause.message : cause?.code;
  return error.message === "fetch failed" && typeof why === "string"
    ? `fetch failed (${why})`
    : error.message;
}
