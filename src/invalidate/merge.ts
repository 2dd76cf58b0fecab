import type { Invalidation } from "../register/types.js";
import type { InvalidationSource } from "./types.js";

/** One source that fires when any of `sources` does (tools and skills registries together). */
export function mergeSources(...sources: InvalidationSource[]): InvalidationSource {
  return {
    on(_event, listener: (event: Invalidation) => void) {
      const offs = sources.map((s) => s.on("invalidated", listener));
      return () => {
        for (const off of offs) off();
      };
    },
  };
}

/** Resolves with the next invalidation (or rejects when `signal` aborts). */
export function nextInvalidation(source: InvalidationSource, signal?: AbortSignal): Promise<Invalidation> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      off();
      reject(signal?.reason);
    };
    const off = source.on("invalidated", (event) => {
      off();
      signal?.removeEventListener("abort", onAbort);
      resolve(event);
    });
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
