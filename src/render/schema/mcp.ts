import type { JsonSchema } from "../../declare/types.js";
import { objectRoot } from "./anthropic.js";
import { dropSafeIntegerBounds } from "./safe-bounds.js";
import type { ConvertedSchema, ConvertOptions, SchemaNote } from "./types.js";

/**
 * JSON Schema -> MCP `inputSchema`: sent as it is (with its `$schema`, which tells an MCP client
 * the dialect), except that MCP requires an object at the root and safe-integer bounds are
 * dropped (see safe-bounds.ts). Pure.
 */
export function toMcp(schema: JsonSchema, options?: ConvertOptions): ConvertedSchema {
  const notes: SchemaNote[] = [];
  const sink = options?.notes === false ? undefined : notes;
  return { schema: objectRoot(dropSafeIntegerBounds(schema, sink), sink), notes };
}
