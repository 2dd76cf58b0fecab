// The OpenAI Agents SDK (`@openai/agents`) is an optional peer dependency: only this module
// imports it, and it is reached through the `toolplane/openai-agents` export, never the root.
import {
  type AgentInputItem,
  type FunctionTool,
  type HostedTool,
  type ToolErrorFormatter,
  type ToolOutputFileContent,
  type ToolOutputImage,
  tool,
  toolSearchTool,
} from "@openai/agents";
import { notLoaded } from "../assemble/host.js";
import type { Toolplane } from "../assemble/toolplane.js";
import { TOOL_SEARCH_NAME } from "../defer/index.js";
import type { ToolResult } from "../execute/index.js";
import {
  attachmentMessageText,
  type Bridge,
  type BridgedTool,
  type BridgeOptions,
  BuiltTools,
  liveBridge,
  searchReferences,
} from "./bridge.js";

type AgentsOutput = string | Array<{ type: "text"; text: string } | ToolOutputImage | ToolOutputFileContent>;
/** What an agent's `tools` holds here: function tools, and the hosted tool search in the native form. */
export type AgentsTool = FunctionTool | HostedTool;

/**
 * The scope's model-visible tools as OpenAI Agents SDK tools (from the `openai-responses`
 * rendering by default, the API the Agents SDK speaks). Each `execute` runs the call through the
 * toolplane host and returns what the model reads: the result's text, or text and media blocks.
 * `onResult` sees each canonical ToolResult (spill path, error code).
 *
 * With something deferred:
 * - native form (`openai-responses` with `defer.native`, the default): deferred tools are
 *   `deferLoading` function tools behind the SDK's hosted `toolSearchTool()`, so the request marks
 *   them `defer_loading`, and the runner runs each once a tool_search output loaded it;
 * - names form (`openai-chat`, or `defer.native=false`): toolplane's tool_search is a function
 *   tool, and each deferred tool is enabled (sent and callable) from the turn after tool_search
 *   loaded it. The array is live: the runner reads `agent.tools` every turn. A call to a tool
 *   still unloaded is unknown to the runner, which ends the run unless it is given
 *   `toolNotFoundBehavior: "return_error_to_model"` (and `deferredToolErrors(plane)` to say why).
 */
export async function openaiAgentsTools(
  plane: Toolplane,
  options: BridgeOptions & { onResult?: (result: ToolResult) => void } = {},
): Promise<AgentsTool[]> {
  const { onResult, ...rest } = options;
  const bridgeOptions: BridgeOptions = { provider: "openai-responses", ...rest };
  const list: AgentsTool[] = [];
  const built = new BuiltTools(make);
  let sent = new Set<string>();
  let search: HostedTool | undefined;
  // no closure here may name `list`: liveBridge holds it weakly (see there)
  let current: Bridge | undefined;
  const live = await liveBridge(plane, bridgeOptions, list, (target, bridge: Bridge) => {
    current = bridge;
    sent = new Set(bridge.tools.map((t) => t.name));
    const next: AgentsTool[] = [...bridge.tools, ...bridge.unloaded].map((t) => built.get(t));
    built.keepOnly(new Set(next.map((t) => t.name)));
    if (bridge.nativeSearch) {
      search ??=
        bridge.nativeSearch.execution === "client" ? clientSearch(bridge.nativeSearch) : toolSearchTool();
      next.push(search);
    }
    // in place: the Agent holds this array
    target.splice(0, target.length, ...next);
  });
  /**
   * `defer.nativeSearch: "toolplane"`: OpenAI's tool_search with client execution, answered by
   * toolplane's search through the host; the runner sends the tools it found as the
   * tool_search_output, and runs their calls from then on.
   */
  function clientSearch(wire: Record<string, unknown>): HostedTool {
    return toolSearchTool({
      execution: "client",
      description: wire.description as string,
      parameters: wire.parameters,
      execute: async ({ toolCall, availableTools }) => {
        const id = toolCall.call_id ?? toolCall.callId ?? undefined;
        const args =
          typeof toolCall.arguments === "string" ? JSON.parse(toolCall.arguments) : toolCall.arguments;
        const result = await current!.callByName(TOOL_SEARCH_NAME, args ?? {}, id ? { id } : {});
        onResult?.(result);
        const found = new Set(searchReferences(current!.catalog, result));
        return availableTools.filter((t) => t.type === "function" && found.has(t.name));
      },
    });
  }
  function make(t: BridgedTool): FunctionTool {
    const spec = {
      name: t.name,
      description: t.description,
      // the host validates against the tool's own schema, so the SDK only needs the wire schema
      parameters: t.parameters,
      strict: t.strict,
      ...(t.deferLoading ? { deferLoading: true } : {}),
      // names form: an unloaded deferred tool is held back until tool_search loads it
      isEnabled: () => sent.has(t.name),
      execute: async (input: unknown, _context: unknown, details?: CallDetails) => {
        const id = details?.toolCall?.callId;
        const result = await t.call(input, {
          ...(id ? { id } : {}),
          ...(details?.signal ? { signal: details.signal } : {}),
        });
        onResult?.(result);
        await live.settled();
        return agentsOutput(result);
      },
    };
    return tool(spec as unknown as Parameters<typeof tool>[0]) as FunctionTool;
  }
  return list;
}

/**
 * The catalog's attachments (skill listing, deferred names, MCP servers' instructions) as Agents
 * SDK input items: one user message, or none. Put them after the conversation's cached items in
 * the input of each `run`, read again each run. Uses the `openai-responses` rendering unless told.
 */
export async function openaiAgentsAttachments(
  plane: Toolplane,
  options: BridgeOptions = {},
): Promise<AgentInputItem[]> {
  const text = await attachmentMessageText(plane, { provider: "openai-responses", ...options });
  return text === "" ? [] : [{ role: "user", content: text }];
}

/**
 * For `run(agent, input, { toolNotFoundBehavior: "return_error_to_model", toolErrorFormatter })`
 * in the names form: a call to a deferred tool tool_search has not loaded reads the same
 * instruction the host gives (search first); other errors keep the SDK's message.
 */
export function deferredToolErrors(plane: Toolplane): ToolErrorFormatter {
  return (args) => {
    if (args.kind !== "tool_not_found") return undefined;
    const deferred = plane.deferral.session.current?.deferred ?? [];
    if (!deferred.includes(args.toolName)) return undefined;
    return `${args.toolName} is not available here: ${notLoaded(args.toolName)}`;
  };
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
