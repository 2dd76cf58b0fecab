import { hash } from "node:crypto";
import type { ToolProjection } from "../declare/project.js";
import type { JsonSchema } from "../declare/types.js";
import { cutText } from "./budget.js";
import type { ConvertedSchema, SchemaNote } from "./schema/types.js";
import type { CatalogSkill, ProviderAdapter, ProviderName } from "./types.js";

export interface WireMemo {
  readonly provider: ProviderName;
  readonly name: string;
  /** Length of the description this wire form carries. */
  readonly kept: number;
  /** The provider's wire form; deep-frozen, so sharing it between catalogs is safe. */
  readonly wire: unknown;
  /** sha256 of its JSON as a 32-character latin1 string: its part of the prefixHash. */
  readonly digest: string;
}

/**
 * One conversion of the parameters, shared by the providers that convert the same way. It keeps
 * the converted schema's JSON and frozen copy, not the converted tree, which dies young: a cold
 * render's surviving heap (and so the GC's copying) stays small. The conversion runs without
 * notes (building ~5 paths and notes per tool was a third of its cost); they are made by
 * converting the same parameters again when a report's conversion list is first read.
 */
export class SchemaMemo {
  private made: readonly SchemaNote[] | undefined;
  /** A deep-frozen copy parsed from `json`, shared by every wire form of this entry. */
  frozen?: unknown;

  constructor(
    readonly convert: ProviderAdapter["convert"],
    /** The parameters converted: the notes are made from them again. */
    private readonly source: JsonSchema,
    /** JSON of the converted schema (undefined when the provider leaves it out). */
    readonly json: string | undefined,
    readonly strict: boolean | undefined,
  ) {}

  notes(): readonly SchemaNote[] {
    this.made ??= this.convert(this.source).notes;
    return this.made;
  }
}

export interface EntryMemo {
  /** JSON of the tool's parameters when first seen (part of the content key). */
  readonly paramsJson: string;
  /** A deep-frozen copy of the parameters, made when a provider sends them unchanged. */
  frozenParams?: unknown;
  readonly schemas: SchemaMemo[];
  /** Wire forms by provider, wire name and kept description length; a few per entry. */
  readonly wires: WireMemo[];
  /** The last cut of the description: the same cap gives the same text. */
  cut?: { cap: number; text: string };
}

interface LineMemo {
  name: string;
  description: string;
  text: string;
  /** sha256 of the line as a 32-character latin1 string. */
  digest: string;
}

/** Wire forms kept per entry: a few names and caps are worth keeping; more means the budget keeps moving. */
const MAX_WIRES = 16;
/** Stands in for the schema while the rest of the wire form is serialised (see `wire`). */
const SCHEMA_SLOT = "\u0000toolplane:schema\u0000";
const SCHEMA_SLOT_JSON = JSON.stringify(SCHEMA_SLOT);

/**
 * Per-entry memoisation for rendering, keyed by the tool's content (name, description and the
 * JSON of its parameters). The same object is found by identity without serialising again; a new
 * object with the same content (a provider that rebuilt its list) is found by the key. Re-rendering
 * after one entry changes therefore converts, serialises and hashes only that entry. Projections
 * are read when first seen: one changed in place afterwards is not noticed (give a new object).
 */
export class RenderMemo {
  private readonly byObject = new WeakMap<ToolProjection, EntryMemo>();
  // A Map in insertion order is the LRU here (a hit moves to the end): lru-cache's bookkeeping
  // measured about 1 µs per call, which is 20 ms of a cold 10,000-tool render.
  private readonly byContent = new Map<string, EntryMemo>();
  private readonly maxEntries: number;
  private readonly skillLines = new WeakMap<CatalogSkill, LineMemo>();
  private readonly deferred = new WeakMap<WireMemo, unknown>();

  constructor(maxEntries = 50_000) {
    this.maxEntries = maxEntries;
  }

  entry(tool: ToolProjection): EntryMemo {
    let entry = this.byObject.get(tool);
    if (entry) return entry;
    const paramsJson = JSON.stringify(tool.parameters);
    // the key is the content itself (each part's JSON, self-delimiting): no hash, no collision
    const key = `${JSON.stringify(tool.name)}${JSON.stringify(tool.description)}${paramsJson}`;
    entry = this.byContent.get(key);
    if (entry) {
      this.byContent.delete(key);
    } else {
      entry = { paramsJson, schemas: [], wires: [] };
      if (this.byContent.size >= this.maxEntries) {
        this.byContent.delete(this.byContent.keys().next().value as string);
      }
    }
    this.byContent.set(key, entry);
    this.byObject.set(tool, entry);
    return entry;
  }

  /** The converted schema for a tool, converting once per content and conversion. */
  schema(entry: EntryMemo, adapter: ProviderAdapter, parameters: ToolProjection["parameters"]): SchemaMemo {
    for (const s of entry.schemas) if (s.convert === adapter.convert) return s;
    const converted = adapter.convert(parameters, { notes: false });
    const json =
      converted.schema === undefined
        ? undefined
        : converted.schema === parameters
          ? entry.paramsJson
          : JSON.stringify(converted.schema);
    const memo = new SchemaMemo(adapter.convert, parameters, json, converted.strict);
    entry.schemas.push(memo);
    return memo;
  }

  /**
   * The wire form for one provider, name and kept description, built, serialised and hashed once.
   * The schema is serialised and copied once per entry and spliced into each wire form, so a cut
   * description or another name costs only the small outer object.
   */
  wire(
    entry: EntryMemo,
    adapter: ProviderAdapter,
    schema: SchemaMemo,
    name: string,
    description: string,
  ): WireMemo {
    const provider = adapter.name;
    const kept = description.length;
    for (const w of entry.wires) if (w.kept === kept && w.provider === provider && w.name === name) return w;
    let json: string | undefined;
    let wire: unknown;
    if (schema.json !== undefined) {
      const frame = JSON.stringify(
        adapter.wire({ name, description, converted: withSchema(schema, SCHEMA_SLOT) }),
      );
      const at = frame.indexOf(SCHEMA_SLOT_JSON);
      // the slot's text appears once unless a name or description holds it too; then serialise whole
      if (at >= 0 && frame.indexOf(SCHEMA_SLOT_JSON, at + 1) < 0) {
        json = `${frame.slice(0, at)}${schema.json}${frame.slice(at + SCHEMA_SLOT_JSON.length)}`;
        wire = deepFreeze(
          adapter.wire({
            name,
            description,
            converted: withSchema(schema, frozenSchema(entry, schema)),
          }),
        );
      }
    }
    if (json === undefined) {
      const full = schema.json === undefined ? undefined : frozenSchema(entry, schema);
      json = JSON.stringify(adapter.wire({ name, description, converted: withSchema(schema, full) }));
      // re-parsed from its JSON: the wire form shares nothing with the tool's own schema
      wire = freezeFresh(JSON.parse(json));
    }
    const memo: WireMemo = { provider, name, kept, wire, digest: hash("sha256", json, "binary") };
    if (entry.wires.length >= MAX_WIRES) entry.wires.shift();
    entry.wires.push(memo);
    return memo;
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
    const line = { name: skill.name, description, text, digest: hash("sha256", text, "binary") };
    this.skillLines.set(skill, line);
    return line;
  }
}

/** What an adapter's `wire` reads of a conversion: the schema and whether it is strict. */
function withSchema(memo: SchemaMemo, schema: unknown): ConvertedSchema {
  const converted: ConvertedSchema = { schema: schema as ConvertedSchema["schema"], notes: [] };
  if (memo.strict !== undefined) converted.strict = memo.strict;
  return converted;
}

/** The schema's frozen copy: the parameters' own copy when the provider sends them unchanged. */
function frozenSchema(entry: EntryMemo, schema: SchemaMemo): unknown {
  if (schema.json === entry.paramsJson) {
    entry.frozenParams ??= freezeFresh(JSON.parse(entry.paramsJson));
    return entry.frozenParams;
  }
  schema.frozen ??= freezeFresh(JSON.parse(schema.json!));
  return schema.frozen;
}

/** Frozen all the way down; returns the same value. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** deepFreeze for a value just parsed from JSON: nothing in it is frozen or shared yet. */
function freezeFresh<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    if (Array.isArray(value)) for (const v of value) freezeFresh(v);
    else for (const k in value) freezeFresh((value as Record<string, unknown>)[k]);
    Object.freeze(value);
  }
  return value;
}
