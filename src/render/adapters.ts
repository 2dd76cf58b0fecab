import type { ToolProjection } from "../declare/project.js";
import { anthropic } from "./providers/anthropic.js";
import { gemini } from "./providers/gemini.js";
import { mcp } from "./providers/mcp.js";
import { openaiChat } from "./providers/openai-chat.js";
import { openaiResponses } from "./providers/openai-responses.js";
import { wireName } from "./schema/names.js";
import type { ProviderAdapter, ProviderName, SchemaConversion } from "./types.js";

const adapters: Record<ProviderName, ProviderAdapter> = {
  anthropic,
  "openai-chat": openaiChat,
  "openai-responses": openaiResponses,
  gemini,
  mcp,
};

export function adapterFor(provider: string): ProviderAdapter {
  const adapter = Object.hasOwn(adapters, provider) ? adapters[provider as ProviderName] : undefined;
  if (!adapter) {
    throw new RangeError(`unknown provider "${provider}": use one of ${Object.keys(adapters).join(", ")}`);
  }
  return adapter;
}

export function supportedProviders(): ProviderName[] {
  return Object.keys(adapters) as ProviderName[];
}

/** One tool in a provider's wire form, outside a catalog (no budget); conversions go to `notes`. */
export function renderTool(
  provider: ProviderName,
  tool: ToolProjection,
  notes: SchemaConversion[] = [],
): unknown {
  const adapter = adapterFor(provider);
  const converted = adapter.convert(tool.parameters);
  const name = wireName(tool.name, adapter.nameRule);
  if (name !== tool.name) notes.push({ tool: tool.name, path: "", change: `name sent as ${name}` });
  for (const n of converted.notes) notes.push({ tool: tool.name, ...n });
  return adapter.wire({ name, description: tool.description, converted });
}
