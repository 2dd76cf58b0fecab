import type { FileWatch } from "../../util/file-watch.js";

/** Most uris one session may be subscribed to, and most files watched for all sessions at once. */
export const SUBSCRIPTIONS_PER_SESSION = 100;
export const WATCHED_FILES_MAX = 256;

interface Watched {
  uri: string;
  /** Undefined while the watch starts (or when the uri has no file behind it). */
  watch: Promise<FileWatch | undefined>;
  subscribers: Set<Subscriber>;
  /** Subscribes waiting for the watch to start: the entry stays while one waits. */
  pending: number;
  timer: NodeJS.Timeout | undefined;
}

/** A session: told when a uri it subscribed to changed. */
export interface Subscriber {
  updated(uri: string): void;
}

/**
 * resources/subscribe for every session of a server: each subscribed uri with a file behind it
 * is watched (one watch per file, however many sessions), only while someone is subscribed, and
 * a change sends `notifications/resources/updated` to its subscribers (a burst of writes is one
 * notification). Only subscribed files are watched, so a bundle of 100,000 files costs nothing
 * until a client subscribes to one of them; both counts are capped.
 */
export class Subscriptions {
  private readonly byUri = new Map<string, Watched>();
  private readonly bySession = new Map<Subscriber, Set<string>>();
  /** Sessions that ended: a subscribe still waiting for its watch when its session ended keeps nothing. */
  private readonly ended = new WeakSet<Subscriber>();

  constructor(private readonly fileOf: (uri: string) => Promise<string | undefined>) {}

  async subscribe(session: Subscriber, uri: string): Promise<void> {
    const mine = this.bySession.get(session) ?? new Set<string>();
    if (mine.has(uri)) return;
    if (mine.size >= SUBSCRIPTIONS_PER_SESSION)
      throw new Error(
        `this session is subscribed to ${SUBSCRIPTIONS_PER_SESSION} resources already; unsubscribe from one first`,
      );
    let watched = this.byUri.get(uri);
    if (!watched) {
      if (this.byUri.size >= WATCHED_FILES_MAX)
        throw new Error(`the server watches ${WATCHED_FILES_MAX} resources already; try again later`);
      const entry: Watched = {
        uri,
        watch: Promise.resolve(undefined),
        subscribers: new Set(),
        pending: 0,
        timer: undefined,
      };
      // set before the first await: a second subscribe of the same uri shares this watch
      entry.watch = this.fileOf(uri).then(async (file) => {
        if (!file) return undefined;
        // chokidar is loaded with the first subscription: importing toolplane must not load it
        const { FileWatch } = await import("../../util/file-watch.js");
        return FileWatch.start([file], () => this.changed(entry)).catch(() => undefined);
      });
      this.byUri.set(uri, entry);
      watched = entry;
    }
    watched.pending++;
    try {
      await watched.watch;
    } catch (error) {
      watched.pending--;
      // the uri cannot be watched (a path out of its bundle): nobody keeps the entry
      if (this.byUri.get(uri) === watched && watched.subscribers.size === 0) this.byUri.delete(uri);
      throw error;
    }
    watched.pending--;
    // the session ended (or the server closed) meanwhile: a client that subscribes and hangs up
    // at once must not leave a watch, counted against WATCHED_FILES_MAX, behind for good
    if (this.ended.has(session) || this.byUri.get(uri) !== watched) {
      if (this.byUri.get(uri) === watched && watched.subscribers.size === 0 && watched.pending === 0)
        this.drop(watched);
      return;
    }
    watched.subscribers.add(session);
    mine.add(uri);
    this.bySession.set(session, mine);
  }

  unsubscribe(session: Subscriber, uri: string): void {
    this.bySession.get(session)?.delete(uri);
    const watched = this.byUri.get(uri);
    if (!watched) return;
    watched.subscribers.delete(session);
    if (watched.subscribers.size === 0 && watched.pending === 0) this.drop(watched);
  }

  /** The session ended: all its subscriptions go. */
  forget(session: Subscriber): void {
    this.ended.add(session);
    for (const uri of this.bySession.get(session) ?? []) this.unsubscribe(session, uri);
    this.bySession.delete(session);
  }

  async close(): Promise<void> {
    const all = [...this.byUri.values()];
    this.byUri.clear();
    this.bySession.clear();
    await Promise.all(all.map((w) => this.stop(w)));
  }

  private changed(watched: Watched): void {
    clearTimeout(watched.timer);
    watched.timer = setTimeout(() => {
      for (const s of watched.subscribers) s.updated(watched.uri);
    }, 50);
    watched.timer.unref?.();
  }

  private drop(watched: Watched): void {
    this.byUri.delete(watched.uri);
    void this.stop(watched);
  }

  private async stop(watched: Watched): Promise<void> {
    clearTimeout(watched.timer);
    await (await watched.watch)?.close();
  }
}
