import type { JsonSchema } from "../../declare/types.js";

/** One change made to a schema so a provider accepts it; `path` is a JSON pointer into the input. */
export interface SchemaNote {
  path: string;
  change: string;
}

/** How a conversion runs; `notes: false` leaves the notes out (a renderer that makes them on demand). */
export interface ConvertOptions {
  notes?: boolean;
}

export interface ConvertedSchema {
  /** The provider form; undefined when the provider wants the field left out (no parameters). */
  schema: JsonSchema | undefined;
  notes: SchemaNote[];
  /** OpenAI only: false when the schema cannot be made strict and is sent as it was. */
  strict?: boolean;
}

export type Node = Record<string, unknown>;

export function isNode(value: unknown): value is Node {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** JSON pointer of a child: `~` and `/` escaped as RFC 6901 says. */
export function child(path: string, ...keys: Array<string | number>): string {
  let out = path;
  for (const key of keys) out += `/${escapeKey(key)}`;
  return out;
}

function escapeKey(key: string | number): string {
  const text = String(key);
  // most keys hold neither character: skip the two regex passes (a cold render makes ~100k paths)
  if (!text.includes("~") && !text.includes("/")) return text;
  return text.replace(/~/g, "~0").replace(/\//g, "~1");
}
