import type { JsonSchema } from "../../declare/types.js";
import { mergeAllOf } from "./all-of.js";
import { resolveLocalRef } from "./refs.js";
import { dropSafeIntegerBounds } from "./safe-bounds.js";
import { type ConvertedSchema, type ConvertOptions, isNode, type Node, type SchemaNote } from "./types.js";

/**
 * JSON Schema -> Anthropic `input_schema`. Anthropic takes JSON Schema nearly whole; it needs an
 * object at the root and does not take oneOf/anyOf/allOf there. `$schema` is removed. Pure.
 */
export function toAnthropic(input: JsonSchema, options?: ConvertOptions): ConvertedSchema {
  const notes: SchemaNote[] = [];
  const sink = options?.notes === false ? undefined : notes;
  const schema = dropSafeIntegerBounds(input, sink);
  // without $schema the schema is kept as it is (objectRoot copies before any change), so the
  // renderer can reuse the JSON it already made of the parameters
  if (!Object.hasOwn(schema, "$schema")) return { schema: objectRoot(schema, sink), notes };
  const { $schema, ...rest } = schema;
  if ($schema !== undefined) sink?.push({ path: "/$schema", change: "removed $schema" });
  return { schema: objectRoot(rest, sink), notes };
}

/** Shared by the adapters that want an object root without top-level combinators. */
export function objectRoot(root: Node, notes: SchemaNote[] | undefined): Node {
  let out: Node = root;
  if (Array.isArray(out.allOf)) {
    const branches = out.allOf.map((b) => {
      if (!isNode(b)) return {};
      if (typeof b.$ref !== "string") return b;
      const { $ref, ...rest } = b;
      return { ...(resolveLocalRef(root, $ref) ?? {}), ...rest };
    });
    out = mergeAllOf(out, branches);
    notes?.push({ path: "/allOf", change: "folded a top-level allOf into one object" });
  }
  for (const key of ["oneOf", "anyOf"] as const) {
    const branches = out[key];
    if (!Array.isArray(branches)) continue;
    // A top-level union cannot be sent: offer every branch's properties, none of them required,
    // and say in the description that the alternatives exist.
    const merged: Node = {};
    let required: string[] | undefined;
    for (const branch of branches) {
      if (!isNode(branch)) continue;
      const b = typeof branch.$ref === "string" ? (resolveLocalRef(root, branch.$ref) ?? {}) : branch;
      if (isNode(b.properties)) for (const [k, v] of Object.entries(b.properties)) merged[k] ??= v;
      const req = Array.isArray(b.required) ? (b.required as string[]) : [];
      required = required === undefined ? req : required.filter((r) => req.includes(r));
    }
    const { [key]: _drop, ...rest } = out;
    out = {
      ...rest,
      type: "object",
      properties: { ...(isNode(rest.properties) ? rest.properties : {}), ...merged },
    };
    if (required && required.length > 0)
      out.required = [...new Set([...((rest.required as string[]) ?? []), ...required])];
    const text = `(one of ${branches.length} alternative argument shapes)`;
    out.description = typeof rest.description === "string" ? `${rest.description} ${text}` : text;
    notes?.push({
      path: `/${key}`,
      change: `a top-level ${key} became one object of all branches' properties`,
    });
  }
  if (out.type !== "object") {
    out = { ...out, type: "object" };
    notes?.push({ path: "", change: 'set type "object" at the root' });
  }
  if (!isNode(out.properties)) {
    out = { ...out, properties: {} };
    notes?.push({ path: "", change: "added empty properties at the root" });
  }
  return out;
}
