// The OpenAI Agents SDK (`@openai/agents`) is an optional peer dependency: only this module
// imports it, and it is reached through the `toolplane/openai-agents` export, never the root.
import { type FunctionTool, type ToolOutputFileContent, type ToolOutputImage, tool } from "@openai/agents";
import type { Toolplane } from "../assemble/toolplane.js";
import type { ToolResult } from "../execute/index.js";
import { type BridgeOptions, bridgeTools } from "./bridge.js";

type AgentsOutput = string | Array<{ type: "text"; text: string } | ToolOutputImage | ToolOutputFileContent>;

/**
 * The scope's model-visible tools as OpenAI Agents SDK function tools (from the
 * `openai-responses` rendering by default, the API the Agents SDK speaks). Each `execute` runs
 * the call through the toolplane host and returns what the model reads: the result's text, or
 * text and media blocks. `onResult` sees each canonical ToolResult (spill path, error code).
 */
export async function openaiAgentsTools(
  plane: Toolplane,
  options: BridgeOptions & { onResult?: (result: ToolResult) => void } = {},
): Promise<FunctionTool[]> {
  const { onResult, ...bridge } = options;
  const { tools } = await bridgeTools(plane, { provider: "openai-responses", ...bridge });
  return tools.map((t) => {
    const options = {
      name: t.name,
      description: t.description,
      // the host validates against the tool's own schema, so the SDK only needs the wire schema
      parameters: t.parameters,
      strict: t.strict,
      execute: async (input: unknown, _context: unknown, details?: CallDetails) => {
        const id = details?.toolCall?.callId;
        const result = await t.call(input, {
          ...(id ? { id } : {}),
          ...(details?.signal ? { signal: details.signal } : {}),
        });
        onResult?.(result);
        return agentsOutput(result);
      },
    };
    return tool(options as unknown as Parameters<typeof tool>[0]) as FunctionTool;
  });
}

/** The part of the SDK's per-call details the adapter reads. */
interface CallDetails {
  toolCall?: { callId?: string };
  signal?: AbortSignal;
}

/** A ToolResult as Agents SDK tool output: plain text, or blocks when it carries media. */
export function agentsOutput(result: ToolResult): AgentsOutput {
  if (result.content.every((b) => b.type === "text")) return result.content.map((b) => b.text).join("\n");
  return result.content.map((b) =>
    b.type === "text"
      ? { type: "text" as const, text: b.text }
      : b.type === "image"
        ? { type: "image" as const, image: { data: b.data, mediaType: b.mimeType } }
        : {
            type: "file" as const,
            file: { data: b.data, mediaType: b.mimeType, filename: b.name ?? "attachment" },
          },
  );
}
