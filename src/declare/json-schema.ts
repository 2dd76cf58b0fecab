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
 * Sealed schemas that may hold a safe-integer bound (`minimum: -(2^53 - 1)`, `maximum: 2^53 - 1`,
 * which the renderer drops): the seal saw one. A sealed schema not in here has none, so the
 * renderer need not walk it looking (1.4 microseconds a tool of a cold 10,000-tool render).
 */
const safeBounded = new WeakSet<object>();

/**
 * toJsonSchema's result frozen all the way down (it is a fresh copy, so freezing it freezes nothing
 * of the caller's): a projection may share it instead of copying it again (see projectTool). A raw
 * schema is copied and frozen in one pass.
 */
export function sealedJsonSchema(schema: SchemaInput, io: "input" | "output"): JsonSchema {
  // frozen when the generated module made it: shared as it is, not copied
  if (isPrebuiltSchema(schema)) {
    // looked at once: every bashTool() or readTool() call seals the same generated schema
    if (!sealed.has(schema.json)) {
      sealed.add(schema.json);
      if (holdsSafeBound(schema.json)) safeBounded.add(schema.json);
    }
    return schema.json;
  }
  const seen = { bound: false };
  let out: JsonSchema;
  if (isZodSchema(schema)) {
    out = freezeFresh(toJsonSchema(schema, io));
    seen.bound = holdsSafeBound(out);
  } else {
    out = rewriteDefs(schema, seen) as JsonSchema;
    out.$schema = DRAFT_07;
    Object.freeze(out);
  }
  sealed.add(out);
  if (seen.bound) safeBounded.add(out);
  return out;
}

/** True for a schema sealedJsonSchema made. */
export function isSealedJsonSchema(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null && sealed.has(schema);
}

/** True for a sealed schema that holds no safe-integer bound anywhere (see safeBounded). */
export function sealedWithoutSafeBounds(schema: unknown): boolean {
  return isSealedJsonSchema(schema) && !safeBounded.has(schema as object);
}

const isSafeBound = (key: string, v: unknown): boolean =>
  (key === "minimum" && v === -Number.MAX_SAFE_INTEGER) ||
  (key === "maximum" && v === Number.MAX_SAFE_INTEGER);

/** Whether a safe-integer bound sits anywhere in the value (data keywords included: it only errs toward a walk). */
function holdsSafeBound(node: unknown): boolean {
  if (node === null || typeof node !== "object") return false;
  if (Array.isArray(node)) return node.some(holdsSafeBound);
  for (const key in node) {
    const v = (node as Record<string, unknown>)[key];
    if (isSafeBound(key, v) || holdsSafeBound(v)) return true;
  }
  return false;
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

/**
 * A copy with `$defs` rewritten. With `seal` (sealedJsonSchema), each node but the root is frozen
 * as it is made and `seal.bound` notes a safe-integer bound: the copy, the freeze and the look for
 * bounds were three walks of every schema a cold 10,000-tool render seals.
 */
function rewriteDefs(node: unknown, seal?: { bound: boolean }, root = true): unknown {
  if (Array.isArray(node)) {
    const out = node.map((v) => rewriteDefs(v, seal, false));
    return seal && !root ? Object.freeze(out) : out;
  }
  refuseNonJson(node);
  if (node === null || typeof node !== "object") return node;
  if (seal) {
    const quick = sealedNode(node as Record<string, unknown>, seal, root);
    if (quick !== undefined) return quick;
  }
  const out: Record<string, unknown> = {};
  // for...in over own keys rather than Object.entries: this copies every schema a tool declares,
  // and the pairs it allocated were most of the copy's cost
  for (const key in node) {
    if (!Object.hasOwn(node, key)) continue;
    const value = (node as Record<string, unknown>)[key];
    if (key === "$defs") {
      const defs = { ...(out.definitions as object), ...(rewriteDefs(value, undefined, false) as object) };
      out.definitions = seal ? freezeFresh(defs) : defs;
      if (seal && !seal.bound) seal.bound = holdsSafeBound(defs);
    } else if (key === "$ref" && typeof value === "string") {
      out.$ref = value.replace(/^#\/\$defs\//, "#/definitions/");
    } else if (key === "$schema") {
      // normalised at the root only; nested $schema is dropped
    } else {
      if (seal && !seal.bound && isSafeBound(key, value)) seal.bound = true;
      setOwn(
        out,
        key,
        key === "properties" || key === "definitions"
          ? mapValues(value, seal)
          : rewriteDefs(value, seal, false),
      );
    }
  }
  // the root is frozen by the caller, after it sets $schema
  return seal && !root ? Object.freeze(out) : out;
}

/**
 * The seal's copy of a node with none of the keys rewriteDefs changes (`$defs`, `$ref`,
 * `$schema`, `__proto__`): a spread, which makes the object at its final size at once, then its
 * object values copied in place; undefined for a node that has one of those keys (rewriteDefs
 * copies it key by key). Built a key at a time, each copy grew its property store as it went:
 * most of a cold 10,000-tool render's garbage from the seal. Symbol keys, which for...in skips,
 * are left out as rewriteDefs leaves them.
 */
function sealedNode(
  node: Record<string, unknown>,
  seal: { bound: boolean },
  root: boolean,
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = { ...node };
  for (const key in out) {
    if (key === "$defs" || key === "$ref" || key === "$schema" || key === "__proto__") return undefined;
    const value = out[key];
    if (typeof value === "object" && value !== null) {
      out[key] =
        key === "properties" || key === "definitions"
          ? mapValues(value, seal)
          : rewriteDefs(value, seal, false);
    } else {
      refuseNonJson(value);
      if (!seal.bound && isSafeBound(key, value)) seal.bound = true;
    }
  }
  for (const sym of Object.getOwnPropertySymbols(out)) delete out[sym as unknown as string];
  return root ? out : Object.freeze(out);
}

/** What structuredClone refused when it made these copies: a schema is JSON data. */
function refuseNonJson(value: unknown): void {
  if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint")
    throw new TypeError(`a JSON Schema holds JSON data only, not a ${typeof value}`);
}

function mapValues(value: unknown, seal: { bound: boolean } | undefined): unknown {
  // not a map of schemas (an array, a string): copied like any other value, never shared
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return rewriteDefs(value, seal, false);
  const out: Record<string, unknown> = {};
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    const v = (value as Record<string, unknown>)[k];
    // a property named "minimum" holding the bound: the renderer's walk drops it too, so it counts
    if (seal && !seal.bound && isSafeBound(k, v)) seal.bound = true;
    setOwn(out, k, rewriteDefs(v, seal, false));
  }
  return seal ? Object.freeze(out) : out;
}

/** An own property even for the name `__proto__` (a property may be called that). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
