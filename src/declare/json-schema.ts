import { z } from "zod";
import type { JsonSchema, SchemaInput } from "./types.js";

export const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

export function isZodSchema(schema: unknown): schema is z.ZodType {
  return schema instanceof z.ZodType;
}

/** True when the schema describes an object, checked without building the JSON Schema. */
export function isObjectSchema(schema: SchemaInput): boolean {
  if (isZodSchema(schema)) return schema instanceof z.ZodObject;
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
    const out = z.toJSONSchema(schema, { target: "draft-7", io, unrepresentable: "any" }) as JsonSchema;
    out.$schema = DRAFT_07;
    return out;
  }
  return normaliseRawSchema(schema);
}

/**
 * A raw schema written for draft 2019-09/2020-12 mostly differs from draft-07 in `$defs`; rewrite
 * those (and the refs to them) so one validator serves every tool. The input is never mutated.
 */
export function normaliseRawSchema(schema: JsonSchema): JsonSchema {
  const copy = structuredClone(schema);
  const rewritten = rewriteDefs(copy) as JsonSchema;
  rewritten.$schema = DRAFT_07;
  return rewritten;
}

function rewriteDefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteDefs);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$defs") {
      out.definitions = { ...(out.definitions as object), ...(rewriteDefs(value) as object) };
    } else if (key === "$ref" && typeof value === "string") {
      out.$ref = value.replace(/^#\/\$defs\//, "#/definitions/");
    } else if (key === "$schema") {
      // normalised at the root only; nested $schema is dropped
    } else {
      out[key] =
        key === "properties" || key === "definitions" ? mapValues(value, rewriteDefs) : rewriteDefs(value);
    }
  }
  return out;
}

function mapValues(value: unknown, fn: (v: unknown) => unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fn(v)]));
}
