import type { JsonSchema, ToolAnnotations } from "../../declare/types.js";
import { toMcp } from "../schema/mcp.js";
import { NAME_RULES } from "../schema/names.js";
import { dropSafeIntegerBounds } from "../schema/safe-bounds.js";
import type { ProviderAdapter } from "../types.js";

/** MCP `tools/list` entries: `{name, description, inputSchema}`. */
export const mcp: ProviderAdapter = {
  name: "mcp",
  nameRule: NAME_RULES.mcp,
  convert: toMcp,
  wire: ({ name, description, converted }) => ({ name, description, inputSchema: converted.schema }),
};

/** The parts of a tool MCP lists beside name, description and inputSchema. */
export interface McpToolFacts {
  outputSchema: JsonSchema;
  host: {
    annotations: Readonly<ToolAnnotations> | undefined;
    display?: { title?: string } | undefined;
  };
}

/**
 * `title`, `outputSchema` and `annotations` of an MCP `tools/list` entry (2025-06-18). MCP requires an
 * object at the output schema's root and structured results that match it: a union of objects
 * says `type: "object"` at its root, and an output that is not an object (a string, an array, a
 * union with other branches) gets no outputSchema, and its results no structuredContent. Safe-integer bounds are dropped as in the input schema. Pure.
 */
export function mcpToolExtras(facts: McpToolFacts): {
  title?: string;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
} {
  const out: { title?: string; outputSchema?: JsonSchema; annotations?: ToolAnnotations } = {};
  // MCP's `title` is the name a client shows people (2025-06-18): the declaration's display title,
  // which no model request carries
  const title = facts.host.display?.title;
  if (typeof title === "string" && title !== "") out.title = title;
  const root = facts.outputSchema;
  const branches = root.oneOf ?? root.anyOf;
  if (root.type === "object") out.outputSchema = dropSafeIntegerBounds(root);
  else if (
    root.type === undefined &&
    Array.isArray(branches) &&
    branches.length > 0 &&
    branches.every((b) => typeof b === "object" && b !== null && (b as JsonSchema).type === "object")
  ) {
    // a union of objects is an object: saying so at the root is what MCP asks, and changes nothing
    const { $schema, ...rest } = dropSafeIntegerBounds(root);
    out.outputSchema = { ...($schema !== undefined ? { $schema } : {}), type: "object", ...rest };
  }
  const annotations = facts.host.annotations;
  if (annotations && Object.keys(annotations).length > 0) out.annotations = { ...annotations };
  return out;
}
