import type { Invalidation } from "../register/types.js";

/** Anything that says "re-read": a registry, a skills watcher, a merged source. */
export interface InvalidationSource {
  on(event: "invalidated", listener: (event: Invalidation) => void): () => void;
}
