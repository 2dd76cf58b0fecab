import type { JsonSchema } from "../../declare/types.js";
import { objectRoot } from "./anthropic.js";
import type { ConvertedSchema, ConvertOptions, SchemaNote } from "./types.js";

/**
 * JSON Schema -> MCP `inputSchema`: sent as it is (with its `$schema`, which tells an MCP client
 * the dialect), except that MCP requires an object at the root. Pure.
 */
export function toMcp(schema: JsonSchema, options?: ConvertOptions): ConvertedSchema {
  const notes: SchemaNote[] = [];
  return { schema: objectRoot(schema, options?.notes === false ? undefined : notes), notes };
}
