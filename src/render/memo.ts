import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { ToolProjection } from "../declare/project.js";
import type { ConvertedSchema } from "./schema/types.js";
import type { ProviderName, SchemaConversion } from "./types.js";

export interface WireMemo {
  /** The provider's wire form; deep-frozen, so sharing it between catalogs is safe. */
  wire: unknown;
  /** sha256 of its JSON: its part of the prefixHash. */
  digest: Buffer;
}

interface ProviderMemo {
  converted: ConvertedSchema;
  notes: readonly SchemaConversion[];
  /** By `${wireName}\0${kept description length}`: a cut changes only the description. */
  wires: Map<string, WireMemo>;
}

interface EntryMemo {
  providers: Map<ProviderName, ProviderMemo>;
}

/**
 * Per-entry memoisation for rendering, keyed by a content hash of the tool (name, description,
 * parameters). The same object is found by identity without hashing again; a new object with the
 * same content (a provider that rebuilt its list) is found by the hash. Re-rendering after one
 * entry changes therefore converts and hashes only that entry.
 */
export class RenderMemo {
  private readonly byObject = new WeakMap<ToolProjection, EntryMemo>();
  private readonly byHash: LRUCache<string, EntryMemo>;

  constructor(maxEntries = 50_000) {
    this.byHash = new LRUCache({ max: maxEntries });
  }

  /** The converted schema and its notes for a tool, converting once per content and provider. */
  provider(tool: ToolProjection, provider: ProviderName, convert: () => ConvertedSchema): ProviderMemo {
    const entry = this.entry(tool);
    let memo = entry.providers.get(provider);
    if (!memo) {
      const converted = convert();
      const notes = converted.notes.map((n) =>
        Object.freeze({ tool: tool.name, path: n.path, change: n.change }),
      );
      memo = { converted, notes, wires: new Map() };
      entry.providers.set(provider, memo);
    }
    return memo;
  }

  /** The wire form for one name and kept description length, built once. */
  wire(memo: ProviderMemo, wireName: string, keptLength: number, build: () => unknown): WireMemo {
    const key = `${wireName}\u0000${keptLength}`;
    let hit = memo.wires.get(key);
    if (!hit) {
      // a few caps per entry are worth keeping; more means the budget keeps moving
      if (memo.wires.size >= 8) memo.wires.clear();
      // re-parsed from its JSON: the wire form shares nothing with the tool's own schema
      const json = JSON.stringify(build());
      hit = { wire: deepFreeze(JSON.parse(json)), digest: createHash("sha256").update(json).digest() };
      memo.wires.set(key, hit);
    }
    return hit;
  }

  private entry(tool: ToolProjection): EntryMemo {
    let entry = this.byObject.get(tool);
    if (entry) return entry;
    const hash = createHash("sha256")
      .update(JSON.stringify([tool.name, tool.description, tool.parameters]))
      .digest("base64");
    entry = this.byHash.get(hash);
    if (!entry) {
      entry = { providers: new Map() };
      this.byHash.set(hash, entry);
    }
    this.byObject.set(tool, entry);
    return entry;
  }
}

/** Frozen all the way down; returns the same value. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
