import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { AnyTool } from "../../declare/types.js";
import type { Observation, Provider } from "../../register/types.js";
import { DEFAULT_START_TIMEOUT_MS, type McpServerConfig, providerName } from "../config.js";
import { qualifyToolNames } from "../names.js";
import { McpConnection, messageOf } from "./connection.js";
import { type CallRemote, checkRemoteTool, mcpTool } from "./tool.js";

export interface Backoff {
  /** First retry after a failed start; doubles each failure up to maxMs. */
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 1_000, maxMs: 60_000 };

/** MCP tools come after built-ins in a layer: a built-in wins a name conflict. */
export const MCP_PROVIDER_RANK = 500;

export interface McpProviderOptions {
  server: string;
  config: McpServerConfig;
  log?: (line: string) => void;
  backoff?: Backoff;
}

interface Listed {
  observation: Observation<AnyTool>;
  fingerprint: string;
}

/**
 * One MCP server as a registry provider (`mcp:<server>`). It starts the server on first read, lists
 * its tools, re-lists on tools/list_changed and reconnects after a crash; each change of its tool
 * set is announced through `changed` (bound to the registry's provider handle). A server that will
 * not start makes enumerate throw (the registry's "rejected" outcome) and is retried with backoff.
 */
export class McpProvider implements Provider<AnyTool> {
  readonly name: string;
  readonly namespace: string;
  readonly rank = MCP_PROVIDER_RANK;
  readonly server: string;
  private readonly config: McpServerConfig;
  private readonly log: (line: string) => void;
  private readonly backoff: Backoff;
  private conn: McpConnection | undefined;
  private connecting: Promise<McpConnection> | undefined;
  private listed: Listed | undefined;
  private listSeq = 0;
  private appliedSeq = 0;
  private relisting: Promise<void> | undefined;
  private relistAgain = false;
  private failure: { message: string; retryAt: number; delay: number } | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private notify: () => void = () => {};
  /** The last list's tools by key (qualified name + listed JSON): an unchanged tool keeps its object. */
  private toolCache = new Map<string, AnyTool>();
  private readonly taskOnlyLogged = new Set<string>();

  constructor(options: McpProviderOptions) {
    this.server = options.server;
    this.config = options.config;
    this.name = providerName(options.server);
    this.namespace = this.name;
    this.log = options.log ?? (() => {});
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
  }

  /** Wires the registry's `changed()` for this provider. */
  bind(changed: () => void): void {
    this.notify = changed;
  }

  /** The server's process id (stdio servers), for diagnostics and tests. */
  get pid(): number | null {
    return this.conn?.pid ?? null;
  }

  async enumerate(): Promise<Observation<AnyTool>> {
    await this.ready();
    if (!this.listed) throw new Error(`MCP server "${this.server}" lost its connection while being listed`);
    return this.listed.observation;
  }

  /** Calls a tool by its raw name, reconnecting first if the server went away. */
  readonly call: CallRemote = async (rawName, args, options) => {
    const conn = await this.ready();
    try {
      return await conn.callTool(rawName, args, options);
    } catch (error) {
      // A JSON-RPC error is the server answering; anything else (refused, reset, expired HTTP
      // session) means the session is gone: drop it so the next read or call reconnects.
      if (!(error instanceof McpError) && !options.signal.aborted) this.lost(conn, messageOf(error));
      throw error;
    }
  };

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const conn = this.conn;
    this.conn = undefined;
    await conn?.close();
  }

  private async ready(): Promise<McpConnection> {
    if (this.closed) throw new Error(`MCP server "${this.server}": the client was closed`);
    if (this.conn?.connected && this.listed) return this.conn;
    if (this.connecting) return this.connecting;
    if (this.failure && Date.now() < this.failure.retryAt) {
      const wait = this.failure.retryAt - Date.now();
      throw new Error(`${this.failure.message} (next retry in ${Math.ceil(wait / 1000)} s)`);
    }
    this.connecting = this.start().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async start(): Promise<McpConnection> {
    const conn: McpConnection = new McpConnection(this.server, this.config, {
      toolsChanged: () => this.relist(conn),
      lost: (reason) => this.lost(conn, reason),
    });
    try {
      await conn.connect();
      this.conn = conn;
      const listed = await this.list(conn);
      if (this.conn !== conn)
        throw new Error(`the connection closed while listing tools${conn.diagnostics.describe()}`);
      this.failure = undefined;
      if (listed) this.listed = listed;
      return conn;
    } catch (error) {
      if (this.conn === conn) this.conn = undefined;
      await conn.close();
      const message = messageOf(error).startsWith("MCP server")
        ? messageOf(error)
        : `${conn.describeTarget()}: ${messageOf(error)}`;
      this.fail(message);
      throw new Error(message);
    }
  }

  /** Lists tools; returns undefined when a newer list already landed (answers can cross). */
  private async list(conn: McpConnection): Promise<Listed | undefined> {
    const seq = ++this.listSeq;
    const raw = await conn.listTools(this.config.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
    if (seq < this.appliedSeq) return undefined;
    this.appliedSeq = seq;
    return this.build(raw);
  }

  private build(raw: readonly unknown[]): Listed {
    const problems: string[] = [];
    const usable = [];
    for (const [index, item] of raw.entries()) {
      const checked = checkRemoteTool(item, index);
      if (!checked.ok) {
        problems.push(`tool "${checked.name}": ${checked.problem}`);
        continue;
      }
      if (checked.tool.execution?.taskSupport === "required") {
        // toolplane calls tools synchronously; a task-only tool could never be called
        if (!this.taskOnlyLogged.has(checked.tool.name)) {
          this.taskOnlyLogged.add(checked.tool.name);
          this.log(
            `MCP server "${this.server}": tool "${checked.tool.name}" left out: it can only run as a task`,
          );
        }
        continue;
      }
      usable.push(checked.tool);
    }
    const names = qualifyToolNames(
      this.server,
      usable.map((t) => t.name),
    );
    const seen = new Set<string>();
    // Only the tools of this list are kept, so a server that keeps changing its tools does not grow it.
    const cache = new Map<string, AnyTool>();
    const entries: AnyTool[] = [];
    const keys: string[] = [];
    for (const remote of usable) {
      if (seen.has(remote.name)) {
        problems.push(`tool "${remote.name}": listed twice; the first is kept`);
        continue;
      }
      seen.add(remote.name);
      const qualifiedName = names.get(remote.name) as string;
      const key = `${qualifiedName}\u0000${JSON.stringify(remote)}`;
      let tool = this.toolCache.get(key);
      if (!tool) {
        try {
          tool = mcpTool({
            server: this.server,
            config: this.config,
            qualifiedName,
            remote,
            call: this.call,
          });
        } catch (error) {
          problems.push(`tool "${remote.name}": ${messageOf(error)}`);
          continue;
        }
      }
      cache.set(key, tool);
      entries.push(tool);
      keys.push(key);
    }
    // Sorted by name: a server that lists the same tools in another order leaves the prompt prefix alone.
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    keys.sort();
    this.toolCache = cache;
    const observation: Observation<AnyTool> = { entries };
    if (problems.length > 0) {
      observation.complete = false;
      observation.note = `MCP server "${this.server}" listed ${problems.length} unusable tool(s), left out: ${problems.join("; ")}`;
      this.log(observation.note);
    }
    const fingerprint = [...keys, ...problems].join("\u0001");
    return { observation, fingerprint };
  }

  /** tools/list_changed: re-list, then tell the registry; notifications during a re-list coalesce. */
  private relist(conn: McpConnection): void {
    if (this.closed) return;
    this.relistAgain = true;
    if (this.relisting) return;
    this.relisting = (async () => {
      while (this.relistAgain && this.conn === conn) {
        this.relistAgain = false;
        try {
          const listed = await this.list(conn);
          if (listed && listed.fingerprint !== this.listed?.fingerprint) {
            this.listed = listed;
            this.notify();
          }
        } catch (error) {
          this.log(`MCP server "${this.server}": re-listing tools failed: ${messageOf(error)}`);
          this.listed = undefined;
          this.notify();
        }
      }
    })().finally(() => {
      this.relisting = undefined;
    });
  }

  /** A crash or a dropped connection: tools leave at once, and a reconnect is tried right away. */
  private lost(conn: McpConnection, reason: string): void {
    if (this.closed || this.conn !== conn) return;
    this.conn = undefined;
    this.listed = undefined;
    this.log(`MCP server "${this.server}": ${reason}; reconnecting`);
    this.failure = undefined;
    this.scheduleRetry(0);
    this.notify();
  }

  private fail(message: string): void {
    const delay = this.failure
      ? Math.min(this.failure.delay * 2, this.backoff.maxMs)
      : this.backoff.initialMs;
    this.failure = { message, retryAt: Date.now() + delay, delay };
    this.log(`${message}; retrying in ${delay} ms`);
    this.scheduleRetry(delay);
  }

  private scheduleRetry(delay: number): void {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.ready().then(
        () => this.notify(),
        () => {
          // fail() already logged it and scheduled the next attempt
        },
      );
    }, delay);
    this.retryTimer.unref?.();
  }
}
