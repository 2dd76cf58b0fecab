// LangChain.js (`langchain` 1.x, `@langchain/core`) is an optional peer dependency: only this
// module imports it, and it is reached through the `toolplane/langchain` export, never the root.
import {
  type AgentMiddleware,
  createMiddleware,
  DynamicStructuredTool,
  type StructuredTool,
  ToolMessage,
} from "langchain";
import type { Toolplane } from "../assemble/toolplane.js";
import type { ToolResult } from "../execute/index.js";
import {
  type Bridge,
  type BridgedTool,
  type BridgeOptions,
  BuiltTools,
  liveBridge,
  resultText,
} from "./bridge.js";

/** The renderings a LangChain tool is built from (each chat model converts it to its own wire form). */
export interface LangChainOptions extends BridgeOptions {
  /**
   * `openai-chat` (default: strict-mode schemas, optional properties nullable) or `anthropic`
   * (optional properties stay optional). LangChain sends deferred tools by name only (toolplane's
   * tool_search loads them), so with `anthropic` set `defer.native=false`.
   */
  provider?: "openai-chat" | "anthropic";
  /** Sees each canonical ToolResult (spill path, error code); the model reads the ToolMessage. */
  onResult?: (result: ToolResult) => void;
}

/** A tool call as an AIMessage carries it (`message.tool_calls`). */
export interface LangChainToolCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
}

/** The plane's tools as LangChain tools, live: the array follows the plane (see langchainTools). */
export interface LangChainTools extends Array<StructuredTool> {
  /**
   * Runs one tool call of an AIMessage through the toolplane host and returns its ToolMessage:
   * a tool of the array, a deferred one tool_search has not loaded (the host says to search
   * first), or any other name (the host says it is unknown).
   */
  invoke(call: LangChainToolCall): Promise<ToolMessage>;
  /** Resolves once the array reflects the plane's latest tools (after a tool_search load). */
  settled(): Promise<void>;
}

interface Live {
  tools: LangChainTools;
  /** The tool for a name the model called: sent, or deferred and not loaded yet; undefined for any other. */
  find(name: string): StructuredTool | undefined;
}

/**
 * The scope's model-visible tools as LangChain StructuredTools, for `model.bindTools(tools)`
 * without an agent. Each call runs through the toolplane host (validation, permissions with
 * `ask`, timeouts, result limits, spill) and returns a ToolMessage whose `artifact` is the
 * canonical ToolResult. The array is live: tool_search's load appends the found tools after the
 * ones before (bind the array again before each model call), and `tools.invoke(toolCall)` runs any
 * call the model made, including one to a deferred tool it has not loaded yet.
 */
export async function langchainTools(
  plane: Toolplane,
  options: LangChainOptions = {},
): Promise<LangChainTools> {
  return (await liveTools(plane, options)).tools;
}

/**
 * A `createAgent` middleware that gives the model the plane's current tools on every model call
 * (appended after the agent's own tools; with deferral on, resident tools and tool_search, then
 * the tools tool_search loaded, in load order) and runs every call to one of them through the
 * toolplane host. `createAgent({ model, tools: [], middleware: [toolplaneMiddleware(plane)] })`.
 */
export function toolplaneMiddleware(plane: Toolplane, options: LangChainOptions = {}): AgentMiddleware {
  let live: Promise<Live> | undefined;
  const tools = () => {
    live ??= liveTools(plane, options);
    return live;
  };
  return createMiddleware({
    name: "toolplane",
    wrapModelCall: async (request, handler) => {
      const { tools: set } = await tools();
      await set.settled();
      return handler({ ...request, tools: [...(request.tools ?? []), ...set] });
    },
    wrapToolCall: async (request, handler) => {
      // a tool the agent was given itself is its own; a name toolplane knows is run by the host
      if (request.tool !== undefined) return handler(request);
      const tool = (await tools()).find(request.toolCall.name);
      return handler(tool === undefined ? request : { ...request, tool });
    },
  }) as AgentMiddleware;
}

async function liveTools(plane: Toolplane, options: LangChainOptions): Promise<Live> {
  const { onResult, ...rest } = options;
  const bridgeOptions: BridgeOptions = { provider: "openai-chat", ...rest };
  const list: StructuredTool[] = [];
  let current: Bridge | undefined;
  let unloaded = new Map<string, StructuredTool>();
  const built = new BuiltTools((t: BridgedTool) => hostTool(t, () => live.settled(), onResult));
  // no closure here may name `list`: liveBridge holds it weakly (see there)
  const live = await liveBridge(plane, bridgeOptions, list, (target, bridge) => {
    if (bridge.nativeSearch) {
      throw new Error(
        "toolplane/langchain sends deferred tools by name (toolplane's tool_search loads them): " +
          "use provider openai-chat, or set defer.native=false",
      );
    }
    current = bridge;
    const next = bridge.tools.map((t) => built.get(t));
    unloaded = new Map(bridge.unloaded.map((t) => [t.name, built.get(t)]));
    built.keepOnly(new Set([...next.map((t) => t.name), ...unloaded.keys()]));
    // in place: a harness that keeps the array sees the loaded tools appended
    target.splice(0, target.length, ...next);
  });
  const find = (name: string) => list.find((t) => t.name === name) ?? unloaded.get(name);
  const invoke = async (call: LangChainToolCall): Promise<ToolMessage> => {
    const tool = find(call.name);
    if (tool !== undefined) return (await tool.invoke({ ...call, type: "tool_call" })) as ToolMessage;
    // not a tool of this set: the host answers (unknown, withheld or denied), as for any call
    const result = await current!.callByName(call.name, call.args, call.id ? { id: call.id } : {});
    onResult?.(result);
    return toolMessage(result, call.id ?? "", call.name);
  };
  const tools = Object.assign(list, { invoke, settled: () => live.settled() }) as LangChainTools;
  return { tools, find };
}

// LangChain checks a JSON Schema input with its own validator before the tool runs and refuses a
// bad call with its own words; the host checks the tool's own schema and tells the model what to
// fix, so it is the one check. The wire schema stays on the tool for bindTools.
const ANY_INPUT = {};

/** A DynamicStructuredTool whose input reaches the host unchecked by LangChain (see ANY_INPUT). */
class HostTool extends DynamicStructuredTool {
  override call(
    ...args: Parameters<DynamicStructuredTool["call"]>
  ): ReturnType<DynamicStructuredTool["call"]> {
    // the base call reads `this.schema` to validate: a view of this tool with an open schema
    const view = Object.create(this, { schema: { value: ANY_INPUT } });
    return DynamicStructuredTool.prototype.call.apply(view, args);
  }
}

function hostTool(
  t: BridgedTool,
  settled: () => Promise<void>,
  onResult: ((result: ToolResult) => void) | undefined,
): StructuredTool {
  return new HostTool({
    name: t.name,
    description: t.description,
    schema: t.parameters as Record<string, unknown>,
    func: async (
      input: unknown,
      _run?: unknown,
      config?: { toolCall?: { id?: string }; signal?: AbortSignal },
    ) => {
      const id = config?.toolCall?.id;
      const result = await t.call(input, {
        ...(id ? { id } : {}),
        ...(config?.signal ? { signal: config.signal } : {}),
      });
      onResult?.(result);
      // a tool_search load rebuilds the set; the next model call must see it
      await settled();
      return toolMessage(result, id ?? "", t.name);
    },
  });
}

/** A ToolResult as a LangChain ToolMessage: its text (or text and images), the canonical result as `artifact`. */
function toolMessage(result: ToolResult, toolCallId: string, name: string): ToolMessage {
  const text = result.content.every((b) => b.type === "text");
  const content = text
    ? resultText(result)
    : result.content.map((b) =>
        b.type === "text"
          ? { type: "text" as const, text: b.text }
          : b.type === "image"
            ? { type: "image_url" as const, image_url: { url: `data:${b.mimeType};base64,${b.data}` } }
            : {
                type: "text" as const,
                text: `[file ${b.name ?? "attachment"} (${b.mimeType}) in the result's artifact]`,
              },
      );
  return new ToolMessage({
    content,
    tool_call_id: toolCallId,
    name,
    artifact: result,
    status: result.isError ? "error" : "success",
  });
}
