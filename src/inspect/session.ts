import { randomBytes } from "node:crypto";
import path from "node:path";
import { Toolplane, type ToolplaneOptions } from "../assemble/index.js";
import { FileWatch } from "../util/file-watch.js";
import type { ChangeEvent } from "./api-types.js";

/** Changes within this window reach the page as one event (a save that writes twice, a burst of skills). */
const COALESCE_MS = 30;
/** Lines for people kept for the page (a failed MCP server, an untrusted project's notice). */
const NOTICES_KEPT = 50;

/**
 * The inspector's live Toolplane. It follows what the page shows: skill roots (the skill
 * watcher), the tool registry and this session's loads (onToolsChanged), and the configuration
 * files, whose change opens a new Toolplane from them (the old one is closed once its calls end).
 * Every change bumps `generation` and reaches the listeners within COALESCE_MS.
 */
export class InspectSession {
  generation = 0;
  /** Set while the configuration files do not load; the previous Toolplane stays in use. */
  configError: string | undefined;
  readonly notices: string[] = [];
  readonly configFiles: string[];
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(event: ChangeEvent) => void>();
  private unsubscribe: () => void = () => {};
  private files: FileWatch | undefined;
  private reloading: Promise<void> = Promise.resolve();
  private readonly inFlight = new Map<Toolplane, Set<Promise<unknown>>>();
  private closed = false;

  private constructor(
    public plane: Toolplane,
    private readonly options: ToolplaneOptions,
  ) {
    this.configFiles = [
      path.join(plane.config.home, "config.json"),
      path.join(plane.config.projectRoot, ".toolplane", "config.json"),
    ];
  }

  static async open(options: ToolplaneOptions): Promise<InspectSession> {
    let session: InspectSession | undefined;
    const log = (line: string) => {
      session?.notice(line);
      options.log?.(line);
    };
    // one spill directory for every Toolplane of this inspector: a path shown stays valid across reloads
    const opts: ToolplaneOptions = {
      ...options,
      session: options.session ?? `inspect-${randomBytes(6).toString("hex")}`,
      log,
    };
    const early: string[] = [];
    const plane = await Toolplane.open({
      ...opts,
      log: (line) => {
        early.push(line);
        options.log?.(line);
      },
    });
    session = new InspectSession(plane, opts);
    for (const line of early) session.notice(line);
    try {
      await session.attach(plane);
      session.files = await FileWatch.start(session.configFiles, () => session?.reload());
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  }

  /** Called with each change event; returns the unsubscribe. */
  onChange(listener: (event: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs `fn` on the current Toolplane; a reload waits for it before closing that Toolplane. */
  async use<T>(fn: (plane: Toolplane) => Promise<T>): Promise<T> {
    const plane = this.plane;
    let set = this.inFlight.get(plane);
    if (!set) {
      set = new Set();
      this.inFlight.set(plane, set);
    }
    const run = fn(plane);
    set.add(run);
    try {
      return await run;
    } finally {
      set.delete(run);
    }
  }

  /** Marks a change for the page (coalesced). */
  changed(what: string): void {
    if (this.closed) return;
    this.pending.add(what);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.generation++;
      const event: ChangeEvent = { generation: this.generation, what: [...this.pending].sort() };
      this.pending.clear();
      for (const listener of this.listeners) listener(event);
    }, COALESCE_MS);
  }

  /** Opens a new Toolplane from the configuration files as they are now (serialised). */
  reload(): Promise<void> {
    this.reloading = this.reloading.then(() => this.reloadNow());
    return this.reloading;
  }

  private async reloadNow(): Promise<void> {
    if (this.closed) return;
    let next: Toolplane;
    try {
      next = await Toolplane.open(this.options);
    } catch (error) {
      this.configError = (error as Error).message;
      this.notice(`configuration not reloaded: ${this.configError}`);
      this.changed("config");
      return;
    }
    if (this.closed) {
      await next.close({ keepSpill: true });
      return;
    }
    const old = this.plane;
    this.unsubscribe();
    this.plane = next;
    this.configError = undefined;
    try {
      await this.attach(next);
    } finally {
      this.changed("config");
    }
    void this.retire(old);
  }

  private async attach(plane: Toolplane): Promise<void> {
    const offTools = plane.onToolsChanged(() => this.changed("tools"));
    const offSkills = plane.skills.on("invalidated", () => this.changed("skills"));
    this.unsubscribe = () => {
      offTools();
      offSkills();
    };
    await plane.watchSkills({ onError: (e) => this.notice(`skill watcher: ${e.message}`) });
  }

  /** Closes a replaced Toolplane once the calls running on it end (its spill files stay: paths were shown). */
  private async retire(plane: Toolplane): Promise<void> {
    const running = this.inFlight.get(plane);
    if (running) await Promise.allSettled([...running]);
    this.inFlight.delete(plane);
    await plane.close({ keepSpill: true }).catch(() => {});
  }

  private notice(line: string): void {
    this.notices.push(line);
    if (this.notices.length > NOTICES_KEPT) this.notices.splice(0, this.notices.length - NOTICES_KEPT);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.listeners.clear();
    this.unsubscribe();
    await this.files?.close();
    await this.reloading.catch(() => {});
    const running = this.inFlight.get(this.plane);
    if (running) await Promise.allSettled([...running]);
    await this.plane.close();
  }
}
