// The Vercel AI SDK (`ai`) is an optional peer dependency: only this module imports it, and it is
// reached through the `toolplane/ai-sdk` export, never through the package root.
import { jsonSchema, type ModelMessage, type Tool, type ToolSet, tool } from "ai";
import type { Toolplane } from "../assemble/toolplane.js";
import { ANTHROPIC_TOOL_SEARCH, OPENAI_RESPONSES_TOOL_SEARCH } from "../defer/index.js";
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

type ModelOutput = ReturnType<NonNullable<Tool<unknown, ToolResult>["toModelOutput"]>>;

/**
 * The scope's model-visible tools as an AI SDK ToolSet. Each tool's `execute` runs the call
 * through the toolplane host (validation, permissions, timeouts, result limits, spill) and
 * returns the canonical ToolResult; `toModelOutput` turns it into what the model reads.
 *
 * The set is live: both AI SDK majors read it again at every step of a `generateText` or
 * `streamText` run, so a tool that tool_search loads is in it (and callable) from the next step.
 * Deferred tools not loaded yet are non-enumerable members: never sent to the model, but a call
 * to one reaches the host, which answers "call tool_search first" instead of the SDK's
 * unknown-tool error. Pass the object itself (add tools of your own with `Object.assign`): a
 * spread copy is frozen at the moment it was made.
 */
export async function aiSdkTools(plane: Toolplane, options: BridgeOptions = {}): Promise<ToolSet> {
  const set: ToolSet = {};
  const built = new BuiltTools(make);
  // no closure here may name `set`: liveBridge holds it weakly (see there)
  let catalog: Bridge["catalog"] | undefined;
  const bridged = await liveBridge(plane, options, set, (target, bridge) => {
    catalog = bridge.catalog;
    sync(target, built, bridge);
  });
  const live = { settled: bridged.settled, references: (r: ToolResult) => searchReferences(catalog!, r) };
  function make(t: BridgedTool): Tool {
    const execute = async (
      input: unknown,
      { toolCallId, abortSignal }: { toolCallId: string; abortSignal?: AbortSignal },
    ): Promise<ToolResult> => {
      const result = await t.call(input, { id: toolCallId, ...(abortSignal ? { signal: abortSignal } : {}) });
      // a tool_search load rebuilds the set; the next step must see it
      await live.settled();
      return result;
    };
    // No explicit type arguments: `tool`'s generics differ between ai 6 (INPUT, OUTPUT) and ai 7
    // (INPUT, OUTPUT, CONTEXT, with two-argument overloads meaning INPUT, CONTEXT), so the types
    // are inferred from the annotated execute and toModelOutput, which both versions accept.
    const made = tool({
      description: t.description,
      // no validate function: the host validates against the tool's own schema and answers a
      // bad call with a message the model can act on, instead of the SDK throwing
      inputSchema: jsonSchema<unknown>(t.parameters as Parameters<typeof jsonSchema>[0]),
      execute,
      toModelOutput: ({ output }: { output: ToolResult }) =>
        t.references ? withReferences(output, live.references(output)) : aiSdkModelOutput(output),
    }) as Tool;
    // set after: a conditional member in the literal defeats tool()'s inference in both majors
    if (t.deferLoading) made.providerOptions = deferLoadingOptions(options.provider);
    return made;
  }
  live_.set(set, bridged);
  return set;
}

/**
 * The catalog's attachments (skill listing, deferred names, MCP servers' instructions) as AI SDK
 * messages: one user message, or none. Read it before each `generateText`/`streamText` call and
 * put it after the messages the provider caches, so a skill added or a tool loaded never moves
 * the cached prefix. Use the same `provider` as aiSdkTools.
 */
export async function aiSdkAttachments(
  plane: Toolplane,
  options: BridgeOptions = {},
): Promise<ModelMessage[]> {
  const text = await attachmentMessageText(plane, options);
  return text === "" ? [] : [{ role: "user", content: text }];
}

const live_ = new WeakMap<ToolSet, { settled(): Promise<void> }>();

/**
 * Resolves once a ToolSet from aiSdkTools reflects the plane's latest tools. Inside a run the
 * adapter waits for this itself; a harness that loads tools between runs (`plane.load`) awaits
 * it before the next run.
 */
export function aiSdkToolsSettled(tools: ToolSet): Promise<void> {
  return live_.get(tools)?.settled() ?? Promise.resolve();
}

/**
 * Anthropic's client-run search: the result's text, then a `tool_reference` block per tool found,
 * as `@ai-sdk/anthropic` writes a custom content part with `anthropic: {type: "tool-reference"}`.
 */
function withReferences(result: ToolResult, names: string[]): ModelOutput {
  if (names.length === 0) return aiSdkModelOutput(result);
  const text = result.content
    .filter((b) => b.type === "text")
    .map((b) => ({ type: "text" as const, text: b.text }));
  const parts = names.map((toolName) => ({
    type: "custom" as const,
    providerOptions: { anthropic: { type: "tool-reference", toolName } },
  }));
  return { type: "content", value: [...text, ...parts] } as ModelOutput;
}

/** `defer_loading` in the AI SDK: a provider option of the provider package that renders the request. */
function deferLoadingOptions(provider: BridgeOptions["provider"]): Record<string, { deferLoading: boolean }> {
  return { [provider === "anthropic" ? "anthropic" : "openai"]: { deferLoading: true } };
}

/** The AI SDK provider tool ids (`@ai-sdk/anthropic`, `@ai-sdk/openai`) of the providers' own tool search. */
const NATIVE_SEARCH_IDS: Record<string, string> = {
  [ANTHROPIC_TOOL_SEARCH.bm25.type]: "anthropic.tool_search_bm25_20251119",
  [ANTHROPIC_TOOL_SEARCH.regex.type]: "anthropic.tool_search_regex_20251119",
  [OPENAI_RESPONSES_TOOL_SEARCH.type]: "openai.tool_search",
};

/** The provider's own tool search as an AI SDK provider tool: the request carries it in place of toolplane's tool_search. */
function nativeSearchTool(wire: Record<string, unknown>): { name: string; tool: Tool } {
  const type = String(wire.type);
  if (wire.execution === "client")
    throw new Error(
      "toolplane/ai-sdk: defer.nativeSearch=toolplane with openai-responses is served through the Agents SDK " +
        "(toolplane/openai-agents); with the AI SDK use the anthropic or openai-chat rendering",
    );
  const id = NATIVE_SEARCH_IDS[type];
  if (id === undefined) throw new Error(`internal: no AI SDK provider tool for the search tool ${type}`);
  return {
    name: typeof wire.name === "string" ? wire.name : "tool_search",
    tool: { type: "provider", id, args: {}, inputSchema: jsonSchema({ type: "object" }) } as unknown as Tool,
  };
}

/**
 * Brings the set to the bridge in place: members it no longer has are removed, sent tools are
 * enumerable, unloaded deferred ones non-enumerable. A tool is rebuilt only when its rendering changed.
 */
function sync(set: ToolSet, built: BuiltTools<Tool>, bridge: Bridge): void {
  const wanted = new Map<string, { tool: Tool; sent: boolean }>();
  for (const t of bridge.tools) wanted.set(t.name, { tool: built.get(t), sent: true });
  for (const t of bridge.unloaded)
    if (!wanted.has(t.name)) wanted.set(t.name, { tool: built.get(t), sent: false });
  built.keepOnly(new Set(wanted.keys()));
  if (bridge.nativeSearch) {
    const { name, tool } = nativeSearchTool(bridge.nativeSearch);
    // the same provider tool while its id stays: an unchanged set is left as it is
    const current = set[name] as { id?: string } | undefined;
    wanted.set(name, {
      tool: current?.id === (tool as { id?: string }).id ? (current as Tool) : tool,
      sent: true,
    });
  }
  for (const name of Object.getOwnPropertyNames(set)) if (!wanted.has(name)) delete set[name];
  // deleting and defining again puts a member at the end: keep the resident order, so a load
  // appends to the request's tool list instead of reshuffling it (the tools ahead stay cached)
  for (const [name, w] of wanted) {
    const current = Object.getOwnPropertyDescriptor(set, name);
    if (current?.value === w.tool && current.enumerable === w.sent) continue;
    if (current && current.enumerable !== w.sent) delete set[name];
    Object.defineProperty(set, name, {
      value: w.tool,
      enumerable: w.sent,
      configurable: true,
      writable: true,
    });
  }
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
