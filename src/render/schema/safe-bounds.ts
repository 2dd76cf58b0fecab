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
  return walk(schema, "", notes) as T;
}

function walk(value: unknown, path: string, notes: SchemaNote[] | undefined): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = walk(item, child(path, i), notes);
      if (next !== item) {
        out ??= value.slice();
        out[i] = next;
      }
    });
    return out ?? value;
  }
  if (!isNode(value)) return value;
  let out: Node | undefined;
  for (const [key, v] of Object.entries(value)) {
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
    const next = walk(v, child(path, key), notes);
    if (next !== v) {
      out ??= { ...value };
      out[key] = next;
    }
  }
  return out ?? value;
}
