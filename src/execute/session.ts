import { LRUCache } from "lru-cache";
import type { FileSnapshot, ToolSession } from "../declare/types.js";

/** Files remembered per session: past this, the least recently read must be read again before an edit. */
export const SESSION_FILES_MAX = 1000;

/** A fresh session state: what read returned per file (bounded) and tools' small values. */
export function newToolSession(): ToolSession {
  return {
    files: new LRUCache<string, FileSnapshot>({ max: SESSION_FILES_MAX }),
    values: new Map<string, unknown>(),
  };
}
