import type { ModelContent } from "../../declare/types.js";
import type { ToolResult } from "../../execute/types.js";

/**
 * toolplane content -> MCP content blocks (what `serve` answers a tools/call with): text, image,
 * `audio/*` files as audio, text with a resource form as an embedded resource or a resource link,
 * a file with a `uri` as an embedded binary resource; any other file as an embedded resource
 * named after the file.
 */
export function mcpContent(content: readonly ModelContent[]): Array<Record<string, unknown>> {
  return content.map(mcpBlock);
}

function mcpBlock(block: ModelContent): Record<string, unknown> {
  if (block.type === "text") {
    const ref = block.resource;
    if (!ref) return { type: "text", text: block.text };
    if (ref.kind === "link")
      return {
        type: "resource_link",
        uri: ref.uri,
        name: ref.name ?? ref.uri,
        ...(ref.description !== undefined ? { description: ref.description } : {}),
        ...(ref.mimeType !== undefined ? { mimeType: ref.mimeType } : {}),
      };
    return {
      type: "resource",
      resource: {
        uri: ref.uri,
        ...(ref.mimeType !== undefined ? { mimeType: ref.mimeType } : {}),
        text: block.text,
      },
    };
  }
  if (block.type === "image") return { type: "image", mimeType: block.mimeType, data: block.data };
  if (block.uri === undefined && block.mimeType.startsWith("audio/"))
    return { type: "audio", mimeType: block.mimeType, data: block.data };
  return {
    type: "resource",
    resource: {
      uri: block.uri ?? `file:///${block.name ?? "attachment"}`,
      mimeType: block.mimeType,
      blob: block.data,
    },
  };
}

/**
 * A ToolResult as an MCP CallToolResult: the content blocks, and for a tool listed with an
 * outputSchema its canonical value as `structuredContent` (MCP 2025-06-18 requires one with the other).
 */
export function callResult(result: ToolResult, entry: { outputSchema?: unknown } | undefined) {
  const out: { content: Array<Record<string, unknown>>; isError: boolean; structuredContent?: object } = {
    content: mcpContent(result.content),
    isError: result.isError,
  };
  const value = result.value;
  if (
    !result.isError &&
    entry?.outputSchema &&
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value)
  )
    out.structuredContent = value;
  return out;
}
