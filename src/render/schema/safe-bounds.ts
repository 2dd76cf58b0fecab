import { sealedWithoutSafeBounds } from "../../declare/json-schema.js";
import { child, isNode, type Node, type SchemaNote } from "./types.js";

/** Keywords whose values are data, not schemas: never rewritten. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples", "example"]);

/**
 * Drops `minimum: -(2^53 - 1)` and `maximum: 2^53 - 1` wherever they sit. Zod's `.int()` emits
 * these safe-integer bounds for every integer: they limit nothing a model would send, cost about
 * 20 tokens per integer parameter, and read as if a real range applied. Pure: returns the same
 * object when there is nothing to drop, else a copy of the changed nodes only.
 */
export function dropSafeIntegerBounds<T extends Node>(schema: T, notes?: SchemaNote[]): T {
  // a schema defineTool sealed says whether it holds one: most hold none, and need no walk
  if (sealedWithoutSafeBounds(schema)) return schema;
  return walk(schema, "", notes) as T;
}

// Paths are built only when notes are kept: a render (notes off) walks every schema of a catalog,
// and naming each node it passes was most of that walk's cost.
function walk(value: unknown, path: string, notes: SchemaNote[] | undefined): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (item === null || typeof item !== "object") continue;
      const next = walk(item, notes ? child(path, i) : "", notes);
      if (next !== item) {
        out ??= value.slice();
        out[i] = next;
      }
    }
    return out ?? value;
  }
  if (!isNode(value)) return value;
  let out: Node | undefined;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const v = value[key];
    if (
      (key === "minimum" && v === -Number.MAX_SAFE_INTEGER) ||
      (key === "maximum" && v === Number.MAX_SAFE_INTEGER)
    ) {
      out ??= { ...value };
      delete out[key];
      notes?.push({
        path: child(path, key),
        change: `dropped ${key} ${v} (the safe-integer bound: no real limit)`,
      });
      continue;
    }
    if (DATA_KEYWORDS.has(key) || v === null || typeof v !== "object") continue;
    const next = walk(v, notes ? child(path, key) : "", notes);
    if (next !== v) {
      out ??= { ...value };
      out[key] = next;
    }
  }
  return out ?? value;
}
