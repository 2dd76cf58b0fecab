import type { JsonSchema } from "../declare/types.js";
import type { ProviderAdapter, ProviderName, SchemaConversion } from "./types.js";

/** Providers do not want `$schema` in a tool's parameters; everything else passes as it is. */
function withoutDialect(schema: JsonSchema, tool: string, notes: SchemaConversion[]): JsonSchema {
  const { $schema, ...rest } = schema;
  if ($schema !== undefined) notes.push({ tool, path: "/$schema", change: "removed $schema" });
  return rest;
}

const anthropic: ProviderAdapter = {
  name: "anthropic",
  renderTool(tool, notes) {
    return {
      name: tool.name,
      description: tool.description,
      input_schema: withoutDialect(tool.parameters, tool.name, notes),
    };
  },
};

const openaiChat: ProviderAdapter = {
  name: "openai-chat",
  renderTool(tool, notes) {
    return {
      type: "function",
      function: {
        name: tool.name,
        description: tool.description,
        parameters: withoutDialect(tool.parameters, tool.name, notes),
      },
    };
  },
};

const adapters: Partial<Record<ProviderName, ProviderAdapter>> = {
  anthropic,
  "openai-chat": openaiChat,
};

export function adapterFor(provider: string): ProviderAdapter {
  const adapter = adapters[provider as ProviderName];
  if (!adapter) {
    throw new RangeError(`unknown provider "${provider}": use one of ${Object.keys(adapters).join(", ")}`);
  }
  return adapter;
}

export function supportedProviders(): ProviderName[] {
  return Object.keys(adapters) as ProviderName[];
}
