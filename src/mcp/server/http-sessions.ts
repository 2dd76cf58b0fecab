import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export interface SessionLimits {
  /** Most sessions at once (serve.maxSessions). */
  maxSessions: number;
  /** A session with no request in flight for this long is closed (serve.sessionIdleMs). */
  idleMs: number;
  log?: (line: string) => void;
}

interface Entry {
  transport: StreamableHTTPServerTransport;
  /** Requests (and open SSE streams) being served: a session is idle only at zero. */
  inFlight: number;
  timer: NodeJS.Timeout | undefined;
}

/**
 * The live HTTP sessions, least recently active first. A session is closed after `idleMs` with
 * nothing in flight (a listening SSE stream counts as in flight), and when the table is full a new
 * session closes the longest-idle one. Without this, every `initialize` held its session forever.
 */
export class HttpSessions {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly limits: SessionLimits) {}

  get size(): number {
    return this.entries.size;
  }

  get(id: string): StreamableHTTPServerTransport | undefined {
    return this.entries.get(id)?.transport;
  }

  add(id: string, transport: StreamableHTTPServerTransport): void {
    const entry: Entry = { transport, inFlight: 0, timer: undefined };
    this.entries.set(id, entry);
    this.arm(id, entry);
  }

  /** A request for the session started: it is active, and moves to the back of the line. */
  begin(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.entries.set(id, entry);
    entry.inFlight++;
    clearTimeout(entry.timer);
    entry.timer = undefined;
  }

  end(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.inFlight = Math.max(0, entry.inFlight - 1);
    if (entry.inFlight === 0) this.arm(id, entry);
  }

  /** The session closed (by the client, by expiry, or by the server): forget it. */
  remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.entries.delete(id);
  }

  /** Room for one more session: true when there is, after closing the longest-idle one if full. */
  makeRoom(): boolean {
    if (this.entries.size < this.limits.maxSessions) return true;
    for (const [id, entry] of this.entries) {
      if (entry.inFlight > 0) continue;
      this.limits.log?.(
        `toolplane serve: ${this.limits.maxSessions} sessions (serve.maxSessions): closing the longest-idle one for a new client`,
      );
      this.expire(id, entry);
      return true;
    }
    return false;
  }

  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    for (const entry of all) clearTimeout(entry.timer);
    this.entries.clear();
    await Promise.all(all.map((e) => e.transport.close().catch(() => {})));
  }

  private arm(id: string, entry: Entry): void {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.expire(id, entry), this.limits.idleMs);
    entry.timer.unref();
  }

  private expire(id: string, entry: Entry): void {
    this.remove(id);
    entry.transport.close().catch(() => {});
  }
}
