// The Vercel AI SDK (`ai`) is an optional peer dependency: only this module imports it, and it is
// reached through the `toolplane/ai-sdk` export, never through the package root.
import { jsonSchema, type Tool, type ToolSet, tool } from "ai";
import type { Toolplane } from "../assemble/toolplane.js";
import type { ToolResult } from "../execute/index.js";
import { type BridgeOptions, bridgeTools } from "./bridge.js";

type ModelOutput = ReturnType<NonNullable<Tool<unknown, ToolResult>["toModelOutput"]>>;

/**
 * The scope's model-visible tools as an AI SDK ToolSet. Each tool's `execute` runs the call
 * through the toolplane host (validation, permissions, timeout, result limits, spill) and
 * returns the canonical ToolResult; `toModelOutput` turns it into what the model reads.
 */
export async function aiSdkTools(plane: Toolplane, options: BridgeOptions = {}): Promise<ToolSet> {
  const { tools } = await bridgeTools(plane, options);
  const set: ToolSet = {};
  for (const t of tools) {
    // No explicit type arguments: `tool`'s generics differ between ai 6 (INPUT, OUTPUT) and ai 7
    // (INPUT, OUTPUT, CONTEXT, with two-argument overloads meaning INPUT, CONTEXT), so the types
    // are inferred from the annotated execute and toModelOutput, which both versions accept.
    const execute = (
      input: unknown,
      { toolCallId, abortSignal }: { toolCallId: string; abortSignal?: AbortSignal },
    ): Promise<ToolResult> =>
      t.call(input, { id: toolCallId, ...(abortSignal ? { signal: abortSignal } : {}) });
    set[t.name] = tool({
      description: t.description,
      // no validate function: the host validates against the tool's own schema and answers a
      // bad call with a message the model can act on, instead of the SDK throwing
      inputSchema: jsonSchema<unknown>(t.parameters as Parameters<typeof jsonSchema>[0]),
      execute,
      toModelOutput: ({ output }: { output: ToolResult }) => aiSdkModelOutput(output),
    });
  }
  return set;
}

/** A ToolResult as AI SDK model output: text, error text, or mixed content with media. */
export function aiSdkModelOutput(result: ToolResult): ModelOutput {
  const texts = result.content.filter((b) => b.type === "text").map((b) => b.text);
  if (result.isError) return { type: "error-text", value: texts.join("\n") };
  if (result.content.every((b) => b.type === "text")) return { type: "text", value: texts.join("\n") };
  return {
    type: "content",
    value: result.content.map((b) =>
      b.type === "text"
        ? { type: "text" as const, text: b.text }
        : b.type === "image"
          ? { type: "image-data" as const, data: b.data, mediaType: b.mimeType }
          : {
              type: "file-data" as const,
              data: b.data,
              mediaType: b.mimeType,
              ...(b.name ? { filename: b.name } : {}),
            },
    ),
  };
}
