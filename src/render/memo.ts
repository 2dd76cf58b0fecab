import { hash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { ToolProjection } from "../declare/project.js";
import { cutText } from "./budget.js";
import type { ConvertedSchema } from "./schema/types.js";
import type { CatalogSkill, ProviderName } from "./types.js";

export interface WireMemo {
  /** The provider's wire form; deep-frozen, so sharing it between catalogs is safe. */
  readonly wire: unknown;
  /** sha256 of its JSON: its part of the prefixHash. */
  readonly digest: Buffer;
}

export interface ProviderMemo {
  readonly converted: ConvertedSchema;
  /** By wire name and kept description length: a cut changes only the description. */
  readonly wires: Map<string, Map<number, WireMemo>>;
}

export interface EntryMemo {
  readonly providers: Map<ProviderName, ProviderMemo>;
  /** The last cut of the description: the same cap gives the same text. */
  cut?: { cap: number; text: string };
}

interface LineMemo {
  name: string;
  description: string;
  text: string;
  digest: Buffer;
}

/**
 * Per-entry memoisation for rendering, keyed by a content hash of the tool (name, description,
 * parameters). The same object is found by identity without hashing again; a new object with the
 * same content (a provider that rebuilt its list) is found by the hash. Re-rendering after one
 * entry changes therefore converts, serialises and hashes only that entry.
 */
export class RenderMemo {
  private readonly byObject = new WeakMap<ToolProjection, EntryMemo>();
  private readonly byHash: LRUCache<string, EntryMemo>;
  private readonly skillLines = new WeakMap<CatalogSkill, LineMemo>();
  private readonly deferred = new WeakMap<WireMemo, unknown>();

  constructor(maxEntries = 50_000) {
    this.byHash = new LRUCache({ max: maxEntries });
  }

  entry(tool: ToolProjection): EntryMemo {
    let entry = this.byObject.get(tool);
    if (entry) return entry;
    const key = hash("sha256", JSON.stringify([tool.name, tool.description, tool.parameters]), "base64");
    entry = this.byHash.get(key);
    if (!entry) {
      entry = { providers: new Map() };
      this.byHash.set(key, entry);
    }
    this.byObject.set(tool, entry);
    return entry;
  }

  /** The converted schema for a tool, converting once per content and provider. */
  provider(entry: EntryMemo, provider: ProviderName, convert: () => ConvertedSchema): ProviderMemo {
    let memo = entry.providers.get(provider);
    if (!memo) {
      memo = { converted: convert(), wires: new Map() };
      entry.providers.set(provider, memo);
    }
    return memo;
  }

  /** The wire form for one name and kept description length, built, serialised and hashed once. */
  wire(memo: ProviderMemo, wireName: string, keptLength: number, build: () => unknown): WireMemo {
    let byLength = memo.wires.get(wireName);
    if (!byLength) {
      byLength = new Map();
      memo.wires.set(wireName, byLength);
    }
    let hit = byLength.get(keptLength);
    if (!hit) {
      // a few caps per entry are worth keeping; more means the budget keeps moving
      if (byLength.size >= 8) byLength.clear();
      // re-parsed from its JSON: the wire form shares nothing with the tool's own schema
      const json = JSON.stringify(build());
      hit = { wire: deepFreeze(JSON.parse(json)), digest: hash("sha256", json, "buffer") };
      byLength.set(keptLength, hit);
    }
    return hit;
  }

  /**
   * The wire form marked `defer_loading: true` (one key for Anthropic and OpenAI Responses),
   * copied once per wire form.
   */
  deferLoading(wire: WireMemo): unknown {
    let hit = this.deferred.get(wire);
    if (hit === undefined) {
      hit = deepFreeze({ ...(wire.wire as Record<string, unknown>), defer_loading: true });
      this.deferred.set(wire, hit);
    }
    return hit;
  }

  /** `description` cut to `cap`, remembered per entry for the last cap. */
  cut(entry: EntryMemo, description: string, cap: number): string {
    if (entry.cut?.cap === cap) return entry.cut.text;
    const text = cutText(description, cap);
    entry.cut = { cap, text };
    return text;
  }

  /** One skill line of the system text and its digest, for the last text this skill had. */
  skillLine(skill: CatalogSkill, description: string): LineMemo {
    const hit = this.skillLines.get(skill);
    if (hit && hit.name === skill.name && hit.description === description) return hit;
    const text = `- ${skill.name}: ${description}`;
    const line = { name: skill.name, description, text, digest: hash("sha256", text, "buffer") };
    this.skillLines.set(skill, line);
    return line;
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
