import type { z } from "zod";
import { freezeFresh } from "../util/freeze.js";
import { isPrebuiltSchema } from "./prebuilt.js";
import type { JsonSchema, SchemaInput } from "./types.js";

export const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

/**
 * A Zod 4 schema, known by its shape rather than `instanceof`: toolplane never imports Zod to
 * read a declaration (loading it costs more than Node's own start), and a schema from another copy
 * of Zod (a user's own install) is a schema all the same. Every call goes through the schema's own
 * methods (`safeParse`, `toJSONSchema`), which Zod 4's classic API carries.
 */
export function isZodSchema(schema: unknown): schema is z.ZodType {
  if (typeof schema !== "object" || schema === null) return false;
  const s = schema as { _zod?: { def?: unknown }; safeParse?: unknown; toJSONSchema?: unknown };
  return (
    typeof s._zod === "object" &&
    s._zod !== null &&
    typeof s._zod.def === "object" &&
    typeof s.safeParse === "function" &&
    typeof s.toJSONSchema === "function"
  );
}

/** The kind Zod records for a schema ("object", "optional", ...), read without importing Zod. */
export function zodKind(schema: z.ZodType): string | undefined {
  return (schema as { _zod: { def: { type?: string } } })._zod.def.type;
}

/** True when the schema describes an object, checked without building the JSON Schema. */
export function isObjectSchema(schema: SchemaInput): boolean {
  if (isZodSchema(schema)) return zodKind(schema) === "object";
  if (isPrebuiltSchema(schema)) return schema.json.type === "object";
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return false;
  return schema.type === "object";
}

/**
 * Draft-07 JSON Schema for a Zod schema or a raw schema, with `$schema` normalised so that ajv
 * (draft-07 by default) and MCP clients read the same document. `io` picks the input side (defaults
 * optional) for parameters and the output side for results.
 */
export function toJsonSchema(schema: SchemaInput, io: "input" | "output"): JsonSchema {
  if (isZodSchema(schema)) {
    const out = schema.toJSONSchema({ target: "draft-7", io, unrepresentable: "any" }) as JsonSchema;
    out.$schema = DRAFT_07;
    return out;
  }
  // made by the same call at build time, for the side the declaration uses it on
  if (isPrebuiltSchema(schema)) return structuredClone(schema.json);
  return normaliseRawSchema(schema);
}

/** Schemas frozen all the way down by sealedJsonSchema: nothing can change them, so they are shared. */
const sealed = new WeakSet<object>();

/**
 * toJsonSchema's result frozen all the way down (it is a fresh copy, so freezing it freezes nothing
 * of the caller's): a projection may share it instead of copying it again (see projectTool).
 */
export function sealedJsonSchema(schema: SchemaInput, io: "input" | "output"): JsonSchema {
  // frozen when the generated module made it: shared as it is, not copied
  if (isPrebuiltSchema(schema)) {
    sealed.add(schema.json);
    return schema.json;
  }
  const out = freezeFresh(toJsonSchema(schema, io));
  sealed.add(out);
  return out;
}

/** True for a schema sealedJsonSchema made. */
export function isSealedJsonSchema(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null && sealed.has(schema);
}

/**
 * A raw schema written for draft 2019-09/2020-12 mostly differs from draft-07 in `$defs`; rewrite
 * those (and the refs to them) so one validator serves every tool. The input is never mutated.
 */
export function normaliseRawSchema(schema: JsonSchema): JsonSchema {
  // rewriteDefs builds a new tree, so the input is copied (and never mutated) in the same pass
  const rewritten = rewriteDefs(schema) as JsonSchema;
  rewritten.$schema = DRAFT_07;
  return rewritten;
}

function rewriteDefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteDefs);
  if (typeof node === "function" || typeof node === "symbol" || typeof node === "bigint") {
    // what structuredClone refused when it made this copy: a schema is JSON data
    throw new TypeError(`a JSON Schema holds JSON data only, not a ${typeof node}`);
  }
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  // for...in over own keys rather than Object.entries: this copies every schema a tool declares,
  // and the pairs it allocated were most of the copy's cost
  for (const key in node) {
    if (!Object.hasOwn(node, key)) continue;
    const value = (node as Record<string, unknown>)[key];
    if (key === "$defs") {
      out.definitions = { ...(out.definitions as object), ...(rewriteDefs(value) as object) };
    } else if (key === "$ref" && typeof value === "string") {
      out.$ref = value.replace(/^#\/\$defs\//, "#/definitions/");
    } else if (key === "$schema") {
      // normalised at the root only; nested $schema is dropped
    } else {
      setOwn(
        out,
        key,
        key === "properties" || key === "definitions" ? mapValues(value, rewriteDefs) : rewriteDefs(value),
      );
    }
  }
  return out;
}

function mapValues(value: unknown, fn: (v: unknown) => unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const k in value)
    if (Object.hasOwn(value, k)) setOwn(out, k, fn((value as Record<string, unknown>)[k]));
  return out;
}

/** An own property even for the name `__proto__` (a property may be called that). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
