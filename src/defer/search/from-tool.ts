import type { z } from "zod";
import { declaredParametersOf } from "../../declare/define-tool.js";
import { isZodSchema, zodKind } from "../../declare/json-schema.js";
import { isPrebuiltSchema } from "../../declare/prebuilt.js";
import type { AnyTool, JsonSchema, SchemaInput } from "../../declare/types.js";
import type { SearchEntry } from "./entry.js";

/**
 * The search entry of a declared tool. Parameter names and descriptions come from the schema as
 * declared (the Zod shape, or the raw JSON Schema's properties), never from `tool.parameters`,
 * whose getter builds the JSON Schema: indexing a deferred tool must not pay for it.
 */
export function entryFromTool(tool: AnyTool, namespace?: string): SearchEntry {
  const source = declaredParametersOf(tool);
  const entry: SearchEntry = {
    name: tool.name,
    description: tool.description,
    params: source ? paramsText(source) : "",
  };
  const ns = namespace ?? tool.host.namespace;
  if (ns) entry.namespace = ns;
  return entry;
}

/** The search entry of a plain `{name, description, parameters}` (e.g. `--tools FILE`). */
export function entryFromJson(tool: {
  name: string;
  description?: string;
  parameters?: unknown;
}): SearchEntry {
  return {
    name: tool.name,
    description: tool.description ?? "",
    params:
      tool.parameters && typeof tool.parameters === "object" ? paramsText(tool.parameters as JsonSchema) : "",
  };
}

/** "name description" for each top-level parameter (one level of nesting for objects). */
export function paramsText(schema: SchemaInput): string {
  const parts: string[] = [];
  if (isZodSchema(schema)) zodParams(schema, parts, 0);
  else jsonParams(isPrebuiltSchema(schema) ? schema.json : schema, parts, 0);
  return parts.join(" ");
}

function unwrapZod(schema: z.ZodType): { inner: z.ZodType; description: string | undefined } {
  let inner = schema;
  let description = schema.description;
  // optional / default / nullable / readonly wrap the real type; the description may sit on either.
  for (let i = 0; i < 8; i++) {
    const def = (inner as { _zod?: { def?: { innerType?: z.ZodType } } })._zod?.def;
    if (!def?.innerType) break;
    inner = def.innerType;
    description ??= inner.description;
  }
  return { inner, description };
}

function zodParams(schema: z.ZodType, parts: string[], depth: number): void {
  if (zodKind(schema) !== "object" || depth > 1) return;
  for (const [name, field] of Object.entries(
    (schema as unknown as { shape: Record<string, z.ZodType> }).shape,
  )) {
    const { inner, description } = unwrapZod(field);
    parts.push(description ? `${name} ${description}` : name);
    zodParams(inner, parts, depth + 1);
  }
}

function jsonParams(schema: JsonSchema, parts: string[], depth: number): void {
  const props = schema.properties;
  if (!props || typeof props !== "object" || depth > 1) return;
  for (const [name, field] of Object.entries(props as Record<string, unknown>)) {
    const f = (field ?? {}) as JsonSchema;
    parts.push(typeof f.description === "string" ? `${name} ${f.description}` : name);
    jsonParams(f, parts, depth + 1);
  }
}

/** Search entries of a registry snapshot's tools, each with its provider's namespace. */
export function entriesFromResolved(
  resolved: readonly { entry: AnyTool; namespace: string }[],
): SearchEntry[] {
  return resolved.map((r) => entryFromTool(r.entry, r.namespace));
}
