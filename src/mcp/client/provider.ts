import type { AnyTool } from "../../declare/types.js";
import { ProviderUnavailable } from "../../register/errors.js";
import type { EntryProblem, Observation, Provider } from "../../register/types.js";
import { DEFAULT_START_TIMEOUT_MS, type McpServerConfig, providerName } from "../config.js";
import { qualifyToolNames } from "../names.js";
import { isMcpError } from "../sdk.js";
import { MESSAGE_TOO_LARGE } from "../stdio/client-transport.js";
import { type ConnectionOptions, connectionOptions, McpConnection, messageOf } from "./connection.js";
import { isNeedsLogin } from "./oauth/errors.js";
import type { McpLoginHook } from "./oauth/session.js";
import { type CallRemote, checkRemoteTool, mcpTool } from "./tool.js";

export interface Backoff {
  /** First retry after a failed start (or a second crash); doubles each failure up to maxMs. */
  initialMs: number;
  maxMs: number;
  /**
   * A session that lasted this long was not a crash loop: its loss reconnects at once and the
   * doubling starts over. Default 60 s.
   */
  stableMs?: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 1_000, maxMs: 60_000, stableMs: 60_000 };

/** MCP tools come after built-ins in a layer: a built-in wins a name conflict. */
export const MCP_PROVIDER_RANK = 500;

export interface McpProviderOptions extends Pick<ConnectionOptions, "onElicitation"> {
  server: string;
  config: McpServerConfig;
  log?: (line: string) => void;
  backoff?: Backoff;
  /** The folder of MCP login files ($TOOLPLANE_HOME/mcp-oauth): HTTP servers use OAuth with it. */
  loginsDir?: string;
  /** Sends a person to an authorization page; without it, a server that needs login says so. */
  login?: McpLoginHook;
}

type Listed = { observation: Observation<AnyTool>; fingerprint: string };

/**
 * One MCP server as a registry provider (`mcp:<server>`). It starts the server on first read, lists
 * its tools, re-lists on tools/list_changed and reconnects after a crash; each change of its tool
 * set is announced through `changed` (bound to the registry's provider handle). A server that will
 * not start makes enumerate throw (the registry's "rejected" outcome) and is retried with backoff.
 *
 * Only the first read waits for the server. Every later start (a retry, a reconnect) runs in the
 * background: a read meanwhile omits this server's tools at once, so a server that hangs never
 * stalls a call to another tool (every call reads the tool set). Failed starts and sessions that
 * die young (a crash loop) back off exponentially, up to a cap.
 */
export class McpProvider implements Provider<AnyTool> {
  readonly name: string;
  readonly namespace: string;
  readonly rank = MCP_PROVIDER_RANK;
  readonly server: string;
  /** The registry's bound on a listing: the start timeout and a margin, plus two logins where a person is asked. */
  get timeoutMs(): number {
    return this.startTimeoutMs + 2_000 + 2 * (this.connection.oauth?.loginTimeoutMs ?? 0);
  }
  private readonly config: McpServerConfig;
  private readonly startTimeoutMs: number;
  private readonly log: (line: string) => void;
  private readonly backoff: Backoff;
  private conn: McpConnection | undefined;
  private connecting: Promise<McpConnection> | undefined;
  private listed: Listed | undefined;
  private listSeq = 0;
  private appliedSeq = 0;
  private relisting: Promise<void> | undefined;
  private relistAgain = false;
  private failure: { message: string; retryAt: number; login?: boolean } | undefined;
  /** Failed starts and early crashes in a row; a session that lasts backoff.stableMs resets it. */
  private streak = 0;
  /** The connection a start is bringing up, until it is up or has failed. */
  private starting: McpConnection | undefined;
  /** The first start has finished (well or not): reads stop waiting for the server. */
  private attempted = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private notify: () => void = () => {};
  /** The last list's tools by key (qualified name + listed JSON): an unchanged tool keeps its object. */
  private toolCache = new Map<string, AnyTool>();
  private readonly taskOnlyLogged = new Set<string>();
  /** What each connection gets: the server's OAuth state (see connectionOptions) and elicitation handler. */
  readonly connection: ConnectionOptions;

  constructor(options: McpProviderOptions) {
    this.server = options.server;
    this.config = options.config;
    this.startTimeoutMs = options.config.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    this.namespace = this.name = providerName(options.server);
    this.log = options.log ?? (() => {});
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.connection = connectionOptions(options);
  }

  /** Wires the registry's `changed()` for this provider. */
  bind(changed: () => void): void {
    this.notify = changed;
  }

  /** The server's process id (stdio servers), for diagnostics and tests. */
  get pid(): number | null {
    return this.conn?.pid ?? null;
  }
  /** The live session's instructions (none while the server is down or never started). */
  get instructions(): string | undefined {
    return this.conn?.connected ? this.conn.instructions : undefined;
  }

  async enumerate(): Promise<Observation<AnyTool>> {
    if (this.closed) throw new Error(`MCP server "${this.server}": the client was closed`);
    if (this.conn?.connected && this.listed && !this.connecting) return this.listed.observation;
    if (this.attempted) {
      // later reads never wait: the reconnect announces itself (changed) when it lands or fails,
      // so the registry keeps this answer until then instead of asking on every read
      this.kick();
      throw new ProviderUnavailable(this.unavailable());
    }
    // the first read waits, so a lazily started server is in the first catalog
    await this.ready();
    if (!this.listed) throw new Error(`MCP server "${this.server}" lost its connection while being listed`);
    return this.listed.observation;
  }

  /** Calls a tool by its raw name, waiting for a reconnect in progress (never inside the backoff). */
  readonly call: CallRemote = async (rawName, args, options) => {
    const conn = await this.ready();
    if (options.maxMessageBytes !== undefined) conn.limitMessages(options.maxMessageBytes);
    try {
      return await conn.callTool(rawName, args, options);
    } catch (error) {
      if (isMcpError(error) && error.code === MESSAGE_TOO_LARGE) {
        // toolplane's own refusal, not the server's words: no "MCP error -32098" prefix
        throw new Error(`MCP server "${this.server}": ${error.message.replace(/^MCP error -?\d+: /, "")}`);
      }
      // A JSON-RPC error is the server answering; anything else (refused, reset, expired HTTP
      // session) means the session is gone: drop it so the next read or call reconnects. A call
      // that needs a login (a step-up) leaves the session as it is.
      if (!isMcpError(error) && !isNeedsLogin(error) && !options.signal.aborted)
        this.lost(conn, messageOf(error));
      throw error;
    }
  };

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const conn = this.conn;
    this.conn = undefined;
    // a start still in progress holds a process (or a request) of its own
    await Promise.all([conn?.close(), this.starting?.close()]);
  }

  private async ready(): Promise<McpConnection> {
    if (this.closed) throw new Error(`MCP server "${this.server}": the client was closed`);
    if (this.connecting) return this.connecting;
    if (this.conn?.connected) return this.conn;
    if (this.failure && Date.now() < this.failure.retryAt) throw new Error(this.unavailable());
    this.connecting = this.start().finally(() => {
      this.connecting = undefined;
      this.attempted = true;
    });
    return this.connecting;
  }

  /** Starts whatever brings the tools back, unless something already will (a start, a timer). */
  private kick(): void {
    if (this.closed || this.connecting) return;
    const conn = this.conn;
    if (conn?.connected) {
      if (!this.listed) this.relist(conn);
      return;
    }
    if (this.failure && Date.now() < this.failure.retryAt) return;
    this.ready().then(
      () => this.notify(),
      // fail() logged it and scheduled the next attempt; readers learn the new wait
      () => this.notify(),
    );
  }

  /** Why a read has no tools from this server right now. */
  private unavailable(): string {
    const now = Date.now();
    if (this.failure && now < this.failure.retryAt) {
      const wait = Math.ceil((this.failure.retryAt - now) / 1000);
      return this.failure.login ? this.failure.message : `${this.failure.message} (next retry in ${wait} s)`;
    }
    if (this.connecting) {
      const last = this.failure ? ` after: ${this.failure.message}` : "";
      return `MCP server "${this.server}" is starting; its tools are left out until it is ready${last}`;
    }
    if (this.conn?.connected) return `MCP server "${this.server}" is re-listing its tools`;
    return this.failure?.message ?? `MCP server "${this.server}" is not connected`;
  }

  private async start(): Promise<McpConnection> {
    const conn: McpConnection = new McpConnection(
      this.server,
      this.config,
      {
        toolsChanged: () => this.relist(conn),
        lost: (reason) => this.lost(conn, reason),
      },
      this.connection,
    );
    this.starting = conn;
    try {
      await conn.connect();
      if (this.closed) throw new Error("the client was closed while the server started");
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
      this.fail(message, isNeedsLogin(error));
      throw new Error(message);
    } finally {
      if (this.starting === conn) this.starting = undefined;
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
    // each left-out tool becomes a `malformed` problem of the snapshot (src/register/types.ts):
    // the list stays complete and cached, since listing again would leave it out again
    const problems: EntryProblem[] = [];
    const usable = [];
    for (const [index, item] of raw.entries()) {
      const checked = checkRemoteTool(item, index);
      if (!checked.ok) {
        problems.push({ entry: checked.name, reason: checked.problem });
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
        problems.push({ entry: remote.name, reason: "listed twice; the first is kept" });
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
          problems.push({ entry: remote.name, reason: messageOf(error) });
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
      observation.problems = problems;
      const listed = problems.map((p) => `tool "${p.entry}": ${p.reason}`).join("; ");
      this.log(`MCP server "${this.server}" listed ${problems.length} unusable tool(s), left out: ${listed}`);
    }
    const fingerprint = [...keys, ...problems.map((p) => `${p.entry}\u0000${p.reason}`)].join("\u0001");
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
          // a session that cannot list its tools is treated as lost: dropped, and reconnected
          // under the same backoff as a crash (re-listing at once could loop with every reader)
          this.lost(conn, `re-listing tools failed: ${messageOf(error)}`);
          void conn.close();
        }
      }
    })().finally(() => {
      this.relisting = undefined;
    });
  }

  /**
   * A crash or a dropped connection: tools leave at once. The first loss after a stable session
   * reconnects right away; a session that died young is a crash loop, and waits its backoff.
   */
  private lost(conn: McpConnection, reason: string): void {
    if (this.closed || this.conn !== conn) return;
    this.conn = undefined;
    this.listed = undefined;
    const now = Date.now();
    if (now - conn.connectedAt >= (this.backoff.stableMs ?? DEFAULT_BACKOFF.stableMs ?? 0)) this.streak = 0;
    const delay = this.streak === 0 ? 0 : this.delayFor(this.streak);
    this.streak++;
    const message = `MCP server "${this.server}": ${reason}`;
    this.failure = delay === 0 ? undefined : { message, retryAt: now + delay };
    this.log(
      delay === 0
        ? `${message}; reconnecting`
        : `${message}; reconnecting in ${delay} ms (${this.streak} failures in a row)`,
    );
    this.scheduleRetry(delay);
    this.notify();
  }

  private fail(message: string, login = false): void {
    if (this.closed) return;
    this.streak++;
    // a login is a person's to do: tried again (one made elsewhere) at the slowest pace, quietly
    const delay = login ? this.backoff.maxMs : this.delayFor(this.streak);
    this.failure = { message, retryAt: Date.now() + delay, login };
    this.log(login ? message : `${message}; retrying in ${delay} ms`);
    this.scheduleRetry(delay);
  }

  /** initialMs, doubling with each failure in a row, never above maxMs. */
  private delayFor(failures: number): number {
    const { initialMs, maxMs } = this.backoff;
    return Math.min(initialMs * 2 ** Math.min(failures - 1, 30), maxMs);
  }

  private scheduleRetry(delay: number): void {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      // the timer is the retry: a timer that fires a millisecond early must not find itself "too soon"
      if (this.failure) this.failure.retryAt = 0;
      this.ready().then(
        () => this.notify(),
        // fail() already logged it and scheduled the next attempt; readers learn the new wait
        () => this.notify(),
      );
      // readers learn that a start is running (their last answer named the wait that just ended)
      this.notify();
    }, delay);
    this.retryTimer.unref?.();
  }
}
