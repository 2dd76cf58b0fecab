// The ToolResult values the host hands back: a success, and a failure as the model reads it.
import type { ModelContent, ResourceRef } from "../declare/types.js";
import type { CallFailure } from "./failure.js";
import { limitErrorText, type ResultLimits } from "./limits.js";
import type { ToolCall, ToolResult } from "./types.js";

export type {
  AskCallback,
  AskRequest,
  DecisionEvent,
  HostOptions,
  HostTool,
  HostToolSet,
  RunOptions,
} from "./host-types.js";

export function ok(
  call: ToolCall,
  tool: string,
  content: ModelContent[],
  truncated: boolean,
  spillPath?: string,
): ToolResult {
  const result: ToolResult = { tool, isError: false, content, truncated };
  if (call.id !== undefined) result.id = call.id;
  if (spillPath !== undefined) result.spillPath = spillPath;
  return withIdFirst(result);
}

/**
 * An error result. Its text obeys the result limits like any other (every line within
 * results.lineMaxChars, the whole within results.inlineMaxBytes), and a cut says so: a call with
 * 100,000 unknown fields gets the first ones and a count, not megabytes of issues.
 */
export function failed(call: ToolCall, tool: string, failure: CallFailure, limits: ResultLimits): ToolResult {
  const full = failure.partial
    ? `${failure.message}\n[partial output before it stopped:]\n${failure.partial.text}`
    : failure.message;
  const text = limitErrorText(full, limits);
  const message = failure.partial ? limitErrorText(failure.message, limits) : text;
  const result: ToolResult = {
    tool,
    isError: true,
    content: [{ type: "text", text: text.text }],
    truncated: failure.partial !== undefined || text.cut,
    error: { code: failure.code, message: message.text },
  };
  if (call.id !== undefined) result.id = call.id;
  if (failure.partial?.spillPath) result.spillPath = failure.partial.spillPath;
  return withIdFirst(result);
}

/** Same field order every time: same inputs, same bytes. */
export function withIdFirst(r: ToolResult): ToolResult {
  const out: ToolResult =
    r.id !== undefined
      ? { id: r.id, tool: r.tool, isError: r.isError, content: r.content, truncated: r.truncated }
      : { tool: r.tool, isError: r.isError, content: r.content, truncated: r.truncated };
  if (r.nextOffset !== undefined) out.nextOffset = r.nextOffset;
  if (r.spillPath !== undefined) out.spillPath = r.spillPath;
  if (r.error !== undefined) out.error = r.error;
  if (r.value !== undefined) out.value = r.value;
  if (r.hooks !== undefined) out.hooks = r.hooks;
  return out;
}

/** A text block; one that was cut loses its resource form (a cut resource is not the resource). */
export function textBlock(text: string, resource: ResourceRef | undefined): ModelContent {
  return resource ? { type: "text", text, resource } : { type: "text", text };
}
