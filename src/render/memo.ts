import { hash } from "node:crypto";
import { isSealedJsonSchema } from "../declare/json-schema.js";
import type { ToolProjection } from "../declare/project.js";
import type { JsonSchema } from "../declare/types.js";
import { freezeFresh } from "../util/freeze.js";
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
 * the converted schema's frozen copy, not the converted tree nor (after the copy is made) its
 * JSON: a cold render's surviving heap, and so the GC's copying, stays small. The conversion runs without
 * notes (building ~5 paths and notes per tool was a third of its cost); they are made by
 * converting the same parameters again when a report's conversion list is first read.
 */
export class SchemaMemo {
  private made: readonly SchemaNote[] | undefined;
  /** A deep-frozen copy parsed from the schema's JSON, shared by every wire form of this entry. */
  frozen?: unknown;

  constructor(
    readonly convert: ProviderAdapter["convert"],
    /** The parameters converted: the notes are made from them again. */
    readonly source: JsonSchema,
    /** Whether there is a schema (a provider may leave it out when there are no parameters). */
    readonly present: boolean,
    /** Whether the converted schema is the parameters unchanged (their JSON is the entry's). */
    readonly unchanged: boolean,
    readonly strict: boolean | undefined,
    /** JSON of a converted schema, held only until its frozen copy is made. */
    public pendingJson: string | undefined,
    /** The converted schema of sealed parameters, held only until it is frozen (see frozenSchema). */
    public converted: unknown,
  ) {}

  notes(): readonly SchemaNote[] {
    this.made ??= this.convert(this.source).notes;
    return this.made;
  }
}

export interface EntryMemo {
  /** The content: the tool's description and its parameters' JSON when first seen. */
  readonly description: string;
  /**
   * Made on first need (see paramsJsonOf) when the parameters are sealed: frozen, so their JSON
   * cannot change, and a first render of 10,000 tools then neither makes nor keeps 10,000 texts.
   */
  paramsJson: string | undefined;
  /** The parameters, kept when sealed (defineTool's frozen copy), which stands for their JSON. */
  readonly sealed: JsonSchema | undefined;
  /** The next older entry with the same name. */
  next: EntryMemo | undefined;
  /** A deep-frozen copy of the parameters, made when a provider sends them unchanged. */
  frozenParams?: unknown;
  /**
   * Conversions and wire forms (by provider, wire name and kept description length): a few per
   * entry, usually one, so the first of each is held in a field and only the rest in an array:
   * two arrays per entry (four heap objects with their stores) were kept for every tool through
   * a cold 10,000-tool render's collections (and an array made by a first push has room for 17).
   */
  schema0: SchemaMemo | undefined;
  schemas: SchemaMemo[] | undefined;
  /** The oldest wire form kept, then the newer ones (MAX_WIRES in all, the oldest dropped first). */
  wire0: WireMemo | undefined;
  wires: WireMemo[] | undefined;
  /** The last cut of the description: the same cap gives the same text. */
  cut?: { cap: number; text: string };
}

export interface LineMemo {
  name: string;
  description: string;
  text: string;
  /** sha256 of the line as a 32-character latin1 string. */
  digest: string;
}

/** A system text made from these skill lines (by identity) and deferred names. */
export interface SystemMemo {
  readonly lines: readonly LineMemo[];
  readonly deferredNames: string | undefined;
  readonly text: string;
  /** sha256 over the line digests, as a 32-character latin1 string. */
  readonly digest: string;
}

/** Contents kept per name: an edited tool keeps its last few versions. */
const MAX_SAME_NAME = 4;
/** Wire forms kept per entry: a few names and caps are worth keeping; more means the budget keeps moving. */
const MAX_WIRES = 16;
/** Stands in for the schema while the rest of the wire form is serialised (see `wire`). */
const SCHEMA_SLOT = "\u0000toolplane:schema\u0000";
const SCHEMA_SLOT_JSON = JSON.stringify(SCHEMA_SLOT);

/**
 * Per-entry memoisation for rendering, keyed by the tool's content (name, description and the
 * JSON of its parameters). The same object is found by identity without serialising again; a new
 * object with the same content (a provider that rebuilt its list) is found by its name, then its
 * description and parameters' JSON compared with the entries kept for that name. Re-rendering
 * after one entry changes therefore converts, serialises and hashes only that entry. Projections
 * are read when first seen: one changed in place afterwards is not noticed (give a new object).
 */
export class RenderMemo {
  private readonly byObject = new WeakMap<ToolProjection, EntryMemo>();
  // By name, newest first in a short chain; the content is compared only within a name, so no
  // long key is hashed (hashing a 600-character key, or a sha256 of it, cost 1-3 microseconds a tool). The
  // Map's insertion order is the LRU (a hit moves its name to the end), by hand because
  // lru-cache's bookkeeping measured about 1 microseconds per call, 20 ms of a cold 10,000-tool render.
  private readonly byName = new Map<string, EntryMemo>();
  private entries = 0;
  private readonly maxEntries: number;
  private readonly skillLines = new WeakMap<CatalogSkill, LineMemo>();
  private readonly deferred = new WeakMap<WireMemo, unknown>();
  private lastSystem: SystemMemo | undefined;

  constructor(maxEntries = 50_000) {
    this.maxEntries = maxEntries;
  }

  entry(tool: ToolProjection): EntryMemo {
    let entry = this.byObject.get(tool);
    if (entry) return entry;
    let head = this.byName.get(tool.name);
    const sealed = isSealedJsonSchema(tool.parameters) ? tool.parameters : undefined;
    // only a name seen before needs the JSON now, to compare contents
    const paramsJson = sealed && head === undefined ? undefined : JSON.stringify(tool.parameters);
    for (let e = head; e !== undefined; e = e.next) {
      if (
        e.description === tool.description &&
        ((sealed !== undefined && e.sealed === sealed) || paramsJsonOf(e) === paramsJson)
      ) {
        entry = e;
        break;
      }
    }
    // set again below, so the name becomes the newest
    if (head !== undefined) this.byName.delete(tool.name);
    if (entry === undefined) {
      entry = {
        description: tool.description,
        paramsJson,
        sealed,
        next: head,
        schema0: undefined,
        schemas: undefined,
        wire0: undefined,
        wires: undefined,
      };
      head = entry;
      this.entries += 1 - cutChain(head, MAX_SAME_NAME);
    }
    this.byName.set(tool.name, head!);
    while (this.entries > this.maxEntries && this.byName.size > 0) {
      const [name, oldest] = this.byName.entries().next().value as [string, EntryMemo];
      this.byName.delete(name);
      this.entries -= cutChain(oldest, 0);
    }
    this.byObject.set(tool, entry);
    return entry;
  }

  /** The converted schema for a tool, converting once per content and conversion. */
  schema(entry: EntryMemo, adapter: ProviderAdapter, parameters: ToolProjection["parameters"]): SchemaMemo {
    if (entry.schema0?.convert === adapter.convert) return entry.schema0;
    if (entry.schemas !== undefined)
      for (const s of entry.schemas) if (s.convert === adapter.convert) return s;
    const converted = adapter.convert(parameters, { notes: false });
    const present = converted.schema !== undefined;
    const unchanged = converted.schema === parameters;
    // only a conversion of sealed parameters may be frozen in place: the entry may have been
    // found by content for another object, whose nodes the converter's output may share; such a
    // conversion is serialised with its first wire form, whole (see wire)
    const sealed = present && !unchanged && isSealedJsonSchema(parameters) ? converted.schema : undefined;
    const json = present && !unchanged && sealed === undefined ? JSON.stringify(converted.schema) : undefined;
    const memo = new SchemaMemo(
      adapter.convert,
      parameters,
      present,
      unchanged,
      converted.strict,
      json,
      sealed,
    );
    if (entry.schema0 === undefined) entry.schema0 = memo;
    else if (entry.schemas === undefined) entry.schemas = [memo];
    else entry.schemas.push(memo);
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
    const w0 = entry.wire0;
    if (w0 !== undefined && w0.kept === kept && w0.provider === provider && w0.name === name) return w0;
    if (entry.wires !== undefined)
      for (const w of entry.wires)
        if (w.kept === kept && w.provider === provider && w.name === name) return w;
    let json: string | undefined;
    let wire: unknown;
    if (firstOfSealed(entry, schema)) {
      // the first wire form of sealed parameters: the form is built on the frozen schema and
      // serialised whole, once; the schema's own JSON is made only if another form is asked for
      // (a cold render serialised each schema, then a frame, then joined the two)
      wire = deepFreeze(
        adapter.wire({ name, description, converted: withSchema(schema, frozenSchema(entry, schema)) }),
      );
      json = JSON.stringify(wire);
    }
    const schemaText = json === undefined ? schemaJson(entry, schema) : undefined;
    if (schemaText !== undefined) {
      const frame = JSON.stringify(
        adapter.wire({ name, description, converted: withSchema(schema, SCHEMA_SLOT) }),
      );
      const at = frame.indexOf(SCHEMA_SLOT_JSON);
      // the slot's text appears once unless a name or description holds it too; then serialise whole
      if (at >= 0 && frame.indexOf(SCHEMA_SLOT_JSON, at + 1) < 0) {
        json = `${frame.slice(0, at)}${schemaText}${frame.slice(at + SCHEMA_SLOT_JSON.length)}`;
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
      const full = schema.present ? frozenSchema(entry, schema) : undefined;
      json = JSON.stringify(adapter.wire({ name, description, converted: withSchema(schema, full) }));
      // re-parsed from its JSON: the wire form shares nothing with the tool's own schema
      wire = freezeFresh(JSON.parse(json));
    }
    const memo: WireMemo = { provider, name, kept, wire, digest: hash("sha256", json, "binary") };
    if (entry.wire0 === undefined) entry.wire0 = memo;
    else if (entry.wires === undefined) entry.wires = [memo];
    else {
      // full: the oldest (wire0) goes, and the next oldest takes its field
      if (entry.wires.length + 1 >= MAX_WIRES) entry.wire0 = entry.wires.shift();
      entry.wires.push(memo);
    }
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

  /**
   * The system text, reused while it is made of the same skill lines (a line memo stands for its
   * text) and deferred names: joining 2,000 skill lines cost ~6 ms a render.
   */
  system(
    lines: readonly LineMemo[],
    deferredNames: string | undefined,
    make: (lines: readonly LineMemo[], deferredNames: string | undefined) => SystemMemo,
  ): SystemMemo {
    const last = this.lastSystem;
    if (last !== undefined && last.deferredNames === deferredNames && last.lines.length === lines.length) {
      let same = true;
      for (let i = 0; i < lines.length && same; i++) same = lines[i] === last.lines[i];
      if (same) return last;
    }
    this.lastSystem = make(lines, deferredNames);
    return this.lastSystem;
  }

  /** One skill line of the system text and its digest, for the last text this skill had. */
  skillLine(skill: CatalogSkill, description: string): LineMemo {
    const hit = this.skillLines.get(skill);
    if (hit && hit.name === skill.name && hit.description === description) return hit;
    // "": the budget left the description out (names-only listing): the name alone
    const text = description === "" ? `- ${skill.name}` : `- ${skill.name}: ${description}`;
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

/**
 * JSON of the converted schema. A changed schema's JSON is held until its frozen copy exists and
 * made again from that copy after: a second wire form is rare, and the text is a third of an
 * entry's memory. Serialising what was parsed from JSON.stringify's output gives the same text.
 */
function schemaJson(entry: EntryMemo, schema: SchemaMemo): string | undefined {
  if (!schema.present) return undefined;
  if (schema.unchanged) return paramsJsonOf(entry);
  return schema.pendingJson ?? JSON.stringify(schema.frozen);
}

/** No JSON of this schema has been made yet and it is sealed: its first wire form is serialised whole. */
function firstOfSealed(entry: EntryMemo, schema: SchemaMemo): boolean {
  if (!schema.present) return false;
  if (schema.unchanged) return entry.sealed !== undefined && entry.paramsJson === undefined;
  return schema.converted !== undefined && schema.pendingJson === undefined && schema.frozen === undefined;
}

/** The entry's parameters as JSON (made once, from the sealed parameters, when first asked). */
function paramsJsonOf(entry: EntryMemo): string {
  entry.paramsJson ??= JSON.stringify(entry.sealed);
  return entry.paramsJson;
}

/** Cuts the chain after its first `keep` entries (all of it for 0); returns how many went. */
function cutChain(head: EntryMemo, keep: number): number {
  let removed = 0;
  if (keep === 0) {
    for (let e: EntryMemo | undefined = head; e !== undefined; e = e.next) removed++;
    return removed;
  }
  let last = head;
  for (let i = 1; i < keep && last.next !== undefined; i++) last = last.next;
  for (let e = last.next; e !== undefined; e = e.next) removed++;
  last.next = undefined;
  return removed;
}

/** The schema's frozen copy: the parameters' own copy when the provider sends them unchanged. */
function frozenSchema(entry: EntryMemo, schema: SchemaMemo): unknown {
  if (schema.unchanged) {
    // a schema defineTool sealed is frozen all the way down and is toolplane's own copy, and
    // paramsJson is its JSON: shared as it is, as the projection shares it (a parsed copy of
    // every tool's schema was a fifth of a cold 10,000-tool render and most of what it kept)
    entry.frozenParams ??= entry.sealed ?? freezeFresh(JSON.parse(paramsJsonOf(entry)));
    return entry.frozenParams;
  }
  if (schema.frozen === undefined) {
    // converted from sealed parameters, the schema is the converter's new nodes over frozen
    // ones of the seal: freezing it freezes only what the converter made, so it is the copy
    schema.frozen =
      schema.converted !== undefined
        ? deepFreeze(schema.converted)
        : freezeFresh(JSON.parse(schema.pendingJson!));
    schema.pendingJson = undefined;
    schema.converted = undefined;
  }
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
