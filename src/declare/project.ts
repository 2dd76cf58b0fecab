import type { AnyTool, JsonSchema } from "./types.js";

/** The model-facing part of a tool. */
export interface ToolProjection {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/**
 * An allowlist copy: only these three fields leave the host, and the schema is deep-copied so
 * no later change (or a function smuggled into it) can follow it into a request.
 */
export function projectTool(tool: AnyTool): ToolProjection {
  return {
    name: tool.name,
    description: tool.description,
    parameters: structuredClone(tool.parameters) as JsonSchema,
  };
}
