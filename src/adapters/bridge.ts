import type { HostRequest, Toolplane } from "../assemble/toolplane.js";
import type { JsonSchema, ModelContent } from "../declare/types.js";
import type { ToolResult } from "../execute/index.js";
import { type Catalog, type ProviderName, restoreCall } from "../render/index.js";

/** Renderings an SDK tool can be built from: each has a name, a description and a JSON Schema. */
export type BridgeProvider = "openai-chat" | "openai-responses" | "anthropic";

export interface BridgeOptions extends HostRequest {
  /**
   * Which toolplane rendering the SDK tools take their name, description (after the catalog
   * budget) and schema from. OpenAI renderings are strict-mode schemas; `anthropic` keeps
   * optional properties optional.
   */
  provider?: BridgeProvider;
}

/** One tool as an SDK sees it, with a call that goes through the toolplane host. */
export interface BridgedTool {
  /** The name the model calls (the provider's wire name). */
  name: string;
  /** The toolplane tool it runs. */
  tool: string;
  description: string;
  parameters: JsonSchema;
  /** True when `parameters` is an OpenAI strict-mode schema. */
  strict: boolean;
  call(args: unknown, run?: { id?: string; signal?: AbortSignal }): Promise<ToolResult>;
}

export interface Bridge {
  tools: BridgedTool[];
  /** The rendering the tools came from: prefixHash, budget cuts, renamed tools. */
  catalog: Catalog;
}

/**
 * The snapshot's model-visible tools as rendered for `provider`, each with a call that runs
 * through `plane.host()`: argument validation, permissions, timeouts, result limits and spill.
 * The SDK adapters are thin wrappers over this.
 */
export async function bridgeTools(plane: Toolplane, options: BridgeOptions = {}): Promise<Bridge> {
  const provider = options.provider ?? "openai-chat";
  if (!["openai-chat", "openai-responses", "anthropic"].includes(provider)) {
    throw new Error(
      `cannot build SDK tools from the "${provider}" rendering: use openai-chat, openai-responses or anthropic`,
    );
  }
  const catalog = await plane.catalog(provider as ProviderName);
  const request: HostRequest = {};
  if (options.ask) request.ask = options.ask;
  if (options.log) request.log = options.log;
  const host = plane.host(request);
  const originals = new Map((await plane.visibleTools()).map((t) => [t.name, t]));
  const tools = catalog.tools.map((wire) => {
    const parts = wireParts(provider, wire);
    const restoredName = restoreCall(catalog, parts.name, {}).name;
    const original = originals.get(restoredName);
    const bridged: BridgedTool = {
      ...parts,
      tool: restoredName,
      call: (args, run = {}) => {
        // the model's arguments go back to the tool's own shape (strict-mode nulls, renamed tool)
        const restored = restoreCall(catalog, parts.name, args, original?.parameters);
        const call = { tool: restored.name, args: restored.args, ...(run.id ? { id: run.id } : {}) };
        return host.call(call, run.signal ? { signal: run.signal } : {});
      },
    };
    return bridged;
  });
  return { tools, catalog };
}

function wireParts(
  provider: BridgeProvider,
  wire: unknown,
): { name: string; description: string; parameters: JsonSchema; strict: boolean } {
  const w = wire as Record<string, unknown>;
  const fn = (provider === "openai-chat" ? w.function : w) as Record<string, unknown>;
  return {
    name: fn.name as string,
    description: (fn.description as string | undefined) ?? "",
    parameters: (provider === "anthropic" ? fn.input_schema : fn.parameters) as JsonSchema,
    strict: fn.strict === true,
  };
}

/** The result's text blocks joined, as a model would read them. */
export function resultText(result: ToolResult): string {
  return result.content
    .filter((b): b is Extract<ModelContent, { type: "text" }> => b.type === "text")
    .map((b) => b.text)
    .join("\n");
}
