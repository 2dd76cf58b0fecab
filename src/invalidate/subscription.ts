import type { Invalidation } from "../register/types.js";
import type { InvalidationSource } from "./types.js";

export interface SubscriptionOptions<T> {
  /** Called with each fresh value, in order; never twice for one read. */
  onValue: (value: T, cause: Invalidation | undefined) => void;
  /** A read that failed; the last good value stays current and the next invalidation retries. */
  onError?: (error: unknown) => void;
  /** Invalidations closer together than this cause one re-read. Default 0 (next tick). */
  debounceMs?: number;
  /** Read once at start (default true). */
  immediate?: boolean;
}

export interface Subscription<T> {
  /** The last value read, if any. */
  current(): T | undefined;
  /** Reads now (joining a read in flight if no invalidation came since it started). */
  refresh(): Promise<T>;
  /** Resolves when no read is pending or running. */
  settled(): Promise<void>;
  close(): void;
}

/**
 * Keeps a consumer's own view fresh: on every invalidation (which carries no diff) it re-reads
 * with the consumer's own `read` (its scope chain, provider, filters). Bursts are coalesced by
 * the debounce; an invalidation that lands while a read runs triggers one more read after it, so
 * the last change is never missed; values arrive in order.
 */
export function subscribe<T>(
  source: InvalidationSource,
  read: () => Promise<T> | T,
  options: SubscriptionOptions<T>,
): Subscription<T> {
  const debounceMs = options.debounceMs ?? 0;
  let value: T | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<T> | undefined;
  let dirty = false;
  let cause: Invalidation | undefined;
  let idle: Array<() => void> = [];

  const finishIdle = () => {
    if (running || timer || dirty) return;
    const waiting = idle;
    idle = [];
    for (const done of waiting) done();
  };

  const run = (): Promise<T> => {
    if (running) {
      dirty = true;
      return running;
    }
    const why = cause;
    cause = undefined;
    const attempt = (async () => {
      try {
        const fresh = await read();
        if (!closed) {
          value = fresh;
          options.onValue(fresh, why);
        }
        return fresh;
      } catch (error) {
        if (!closed) options.onError?.(error);
        throw error;
      } finally {
        running = undefined;
        if (dirty && !closed) {
          dirty = false;
          run().catch(() => {});
        } else finishIdle();
      }
    })();
    running = attempt;
    return attempt;
  };

  const off = source.on("invalidated", (event) => {
    if (closed) return;
    cause = event;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      run().catch(() => {});
    }, debounceMs);
    timer.unref?.();
  });

  if (options.immediate !== false) run().catch(() => {});

  return {
    current: () => value,
    refresh: () => (running && cause === undefined ? running : run()),
    settled: () =>
      new Promise<void>((resolve) => {
        idle.push(resolve);
        finishIdle();
      }),
    close: () => {
      closed = true;
      off();
      if (timer) clearTimeout(timer);
      timer = undefined;
      dirty = false;
      finishIdle();
    },
  };
}
