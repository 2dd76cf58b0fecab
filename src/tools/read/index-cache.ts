import type { BigIntStats } from "node:fs";
import { LRUCache } from "lru-cache";
import type { LineIndex } from "./line-index.js";
import type { Sniffed } from "./sniff.js";

export interface FileFacts {
  sniffed: Sniffed;
  /** Present for text files. */
  index?: LineIndex;
}

interface Entry {
  version: string;
  facts: FileFacts;
}

/** Files whose index is kept; an index of a 1 GiB file is about 128 KiB of counts. */
const MAX_FILES = 128;

const cache = new LRUCache<string, Entry>({ max: MAX_FILES });

/** Identity of one version of a file: a change of size, mtime or inode makes a new index. */
export function fileVersion(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

export function cachedFacts(file: string, version: string): FileFacts | undefined {
  const hit = cache.get(file);
  if (hit === undefined) return undefined;
  if (hit.version === version) return hit.facts;
  cache.delete(file);
  return undefined;
}

export function storeFacts(file: string, version: string, facts: FileFacts): void {
  cache.set(file, { version, facts });
}

export function clearIndexCache(): void {
  cache.clear();
}

/** The cached index of a file, whatever its version (tests and benchmarks look at what was scanned). */
export function peekIndex(file: string) {
  return cache.get(file)?.facts.index;
}
