// What `plane.catalog(provider).tools` holds, per provider, in toolplane's own types (no provider
// SDK is a dependency). Each is what the provider's API reference takes, so the array goes into
// the SDK's request as it is: `messages.create({ tools })` (Anthropic), `chat.completions.create`,
// `responses.create` (OpenAI), a Gemini `tools: [{ functionDeclarations }]`, an MCP `tools/list`.
// test/examples compiles the guides against the SDKs' own types, with no cast. Type aliases, not
// interfaces: an alias is assignable to an index-signature type (`Record<string, unknown>`).

/** A JSON Schema object, as every provider takes a tool's parameters (the root is an object). */
export type WireObjectSchema = {
  type: "object";
  properties?: Record<string, unknown>;
  required?: string[];
  [keyword: string]: unknown;
};

/** A JSON Schema as Gemini's OpenAPI subset takes it (no $ref, oneOf, allOf, const). */
export type GeminiSchema = {
  type?: string;
  [keyword: string]: unknown;
};

/** Anthropic Messages API `tools[]`: a custom tool; `defer_loading` in the native deferral form. */
export type AnthropicTool = {
  name: string;
  description: string;
  input_schema: WireObjectSchema;
  /** The provider keeps it out of the model's context until its tool search loads it. */
  defer_loading?: boolean;
};

/** Anthropic's server-side tool search (BM25 variant), sent when tools are deferred natively. */
export type AnthropicToolSearchBm25 = {
  type: "tool_search_tool_bm25_20251119";
  name: "tool_search_tool_bm25";
};

/** Anthropic's server-side tool search (regex variant). */
export type AnthropicToolSearchRegex = {
  type: "tool_search_tool_regex_20251119";
  name: "tool_search_tool_regex";
};

export type AnthropicCatalogTool = AnthropicTool | AnthropicToolSearchBm25 | AnthropicToolSearchRegex;

/** OpenAI Chat Completions `tools[]`. `strict` is false when the schema cannot be made strict. */
export type OpenAIChatTool = {
  type: "function";
  function: { name: string; description: string; parameters: WireObjectSchema; strict: boolean };
};

/** OpenAI Responses API `tools[]`: a function tool (flat); `defer_loading` in the native form. */
export type OpenAIResponsesTool = {
  type: "function";
  name: string;
  description: string;
  parameters: WireObjectSchema;
  strict: boolean;
  /** The provider keeps it out of the model's context until its tool search loads it. */
  defer_loading?: boolean;
};

/** OpenAI Responses' hosted tool search, sent when tools are deferred natively. */
export type OpenAIToolSearchTool = {
  type: "tool_search";
};

export type OpenAIResponsesCatalogTool = OpenAIResponsesTool | OpenAIToolSearchTool;

/** One Gemini `FunctionDeclaration` (send them as `tools: [{ functionDeclarations }]`). */
export type GeminiFunctionDeclaration = {
  name: string;
  description: string;
  /** Left out for a tool without parameters, as Gemini asks. */
  parameters?: GeminiSchema;
};

/** One MCP `tools/list` entry (2025-06-18). */
export type McpTool = {
  name: string;
  description: string;
  inputSchema: WireObjectSchema;
  /** The name a client shows people (the declaration's display title). */
  title?: string;
  outputSchema?: WireObjectSchema;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
};

/** The tool type of each provider's catalog. */
export type CatalogToolOf = {
  anthropic: AnthropicCatalogTool;
  "openai-chat": OpenAIChatTool;
  "openai-responses": OpenAIResponsesCatalogTool;
  gemini: GeminiFunctionDeclaration;
  mcp: McpTool;
};
