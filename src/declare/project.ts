import { isSealedJsonSchema } from "./json-schema.js";
import type { AnyTool, JsonSchema } from "./types.js";

/** The model-facing part of a tool. */
export interface ToolProjection {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/**
 * An allowlist copy: only these three fields leave the host, and the schema is deep-copied so
 * no later change (or a function smuggled into it) can follow it into a request. A schema
 * defineTool built is already such a copy, frozen all the way down: it is shared, not copied again.
 */
export function projectTool(tool: AnyTool): ToolProjection {
  const parameters = tool.parameters;
  return {
    name: tool.name,
    description: tool.description,
    parameters: isSealedJsonSchema(parameters) ? parameters : (structuredClone(parameters) as JsonSchema),
  };
}
