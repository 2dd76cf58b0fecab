import { functionEntry } from "./hook-set.js";
import type { FunctionHook, HookEntry, HookEventName, HookFunction } from "./types.js";

/**
 * A plane's in-process hooks (`plane.hooks.on(event, fn)`): they run for every host the plane
 * makes from then on, with the configured hooks, under the same rules.
 */
export class HookRegistry {
  private list: HookEntry[] = [];

  /** Adds a hook; returns the function that removes it. */
  on(event: HookEventName, hook: HookFunction | FunctionHook): () => void {
    const entry = functionEntry(event, hook, "in-process (plane.hooks)");
    this.list = [...this.list, entry];
    return () => {
      this.list = this.list.filter((e) => e !== entry);
    };
  }

  entries(): readonly HookEntry[] {
    return this.list;
  }
}
