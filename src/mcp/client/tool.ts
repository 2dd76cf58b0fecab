import { Ajv } from "ajv";
import { defineTool } from "../../declare/define-tool.js";
import { normaliseRawSchema } from "../../declare/json-schema.js";
import type { AnyTool, JsonSchema, ModelContent, RenderedOutput } from "../../declare/types.js";
import { DEFAULT_CALL_TIMEOUT_MS, type McpServerConfig, providerName } from "../config.js";
import type { RemoteTool } from "./connection.js";
import { fromMcpContent, textOf } from "./content.js";

/** The canonical value of an MCP tool call: the server's content, and its structured value if any. */
export interface McpToolOutput {
  content: ModelContent[];
  structuredContent?: Record<string, unknown>;
}

export type CallRemote = (
  rawName: string,
  args: Record<string, unknown>,
  options: { signal: AbortSignal; timeoutMs: number },
) => Promise<{ content?: unknown; structuredContent?: unknown; isError?: boolean }>;

/** The permission actions an MCP tool may declare; `mcp:destructive` asks by default (docs/mcp.md). */
export const MCP_ACTIONS = {
  read: "mcp:read",
  write: "mcp:write",
  destructive: "mcp:destructive",
  /** An untrusted server's tool that does not claim to be destructive: its real effect is unknown. */
  call: "mcp:call",
} as const;

/** The rule the permission engine applies when the user set none for a destructive MCP tool. */
export const MCP_DEFAULT_RULES = [{ effect: "ask", action: MCP_ACTIONS.destructive }] as const;

// Meta-validation only (no compile), so listing 10,000 tools stays cheap and deferred tools never
// build a validator; strict off because real schemas carry vendor keywords.
const metaAjv = new Ajv({ strict: false, validateSchema: true });

export type Checked = { ok: true; tool: RemoteTool } | { ok: false; name: string; problem: string };

/** One listed tool checked before it becomes a toolplane tool: a bad one is reported, not fatal. */
export function checkRemoteTool(raw: unknown, index: number): Checked {
  const t = (raw ?? {}) as Record<string, unknown>;
  const name = typeof t.name === "string" && t.name !== "" ? t.name : `#${index}`;
  const fail = (problem: string): Checked => ({ ok: false, name, problem });
  if (name.startsWith("#")) return fail("the tool has no name");
  const input = checkSchema(t.inputSchema, "inputSchema");
  if (input) return fail(input);
  if (t.outputSchema !== undefined) {
    const output = checkSchema(t.outputSchema, "outputSchema");
    if (output) return fail(output);
  }
  if (t.description !== undefined && typeof t.description !== "string") {
    return fail("description must be a string");
  }
  return { ok: true, tool: t as unknown as RemoteTool };
}

function checkSchema(schema: unknown, field: string): string | undefined {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
    return `${field} must be a JSON Schema object`;
  }
  if ((schema as JsonSchema).type !== "object") return `${field} must have "type": "object"`;
  try {
    // only a schema naming another dialect or using $defs needs the (copying) normalisation first
    const root = schema as JsonSchema;
    const draft07 = root.$schema === undefined && root.$defs === undefined ? root : normaliseRawSchema(root);
    if (!metaAjv.validateSchema(draft07)) {
      return `${field} is not valid JSON Schema: ${metaAjv.errorsText(metaAjv.errors)}`;
    }
  } catch (error) {
    return `${field} is not valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
  return undefined;
}

export interface McpToolOptions {
  server: string;
  config: McpServerConfig;
  qualifiedName: string;
  remote: RemoteTool;
  call: CallRemote;
}

/** A listed MCP tool as a toolplane tool; the call goes to the server under its raw name. */
export function mcpTool(opts: McpToolOptions): AnyTool {
  const { remote, config, server } = opts;
  const trusted = config.trusted === true;
  const hints = remote.annotations ?? {};
  const readOnly = trusted && hints.readOnlyHint === true;
  const outputSchema = outputSchemaFor(remote.outputSchema as JsonSchema | undefined);
  return defineTool({
    name: opts.qualifiedName,
    description: describe(remote, server),
    parameters: remote.inputSchema as JsonSchema,
    output: { schema: outputSchema, render: renderOutput },
    execute: async (args: Record<string, unknown>, ctx): Promise<McpToolOutput> => {
      const fromConfig = ctx.config["tools.timeoutMs"];
      const timeoutMs =
        config.timeoutMs ?? (typeof fromConfig === "number" ? fromConfig : DEFAULT_CALL_TIMEOUT_MS);
      const result = await opts.call(remote.name, args ?? {}, { signal: ctx.signal, timeoutMs });
      const content = fromMcpContent(Array.isArray(result.content) ? result.content : []);
      if (result.isError) {
        throw new Error(textOf(content) || `MCP server "${server}" reported an error without text`);
      }
      const out: McpToolOutput = { content };
      if (result.structuredContent !== undefined) {
        out.structuredContent = result.structuredContent as Record<string, unknown>;
      }
      return out;
    },
    ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}),
    concurrencySafe: readOnly,
    permission: {
      action: actionFor(hints, trusted),
      patterns: () => [opts.qualifiedName],
    },
    display: { title: remote.title ?? hints.title ?? `${remote.name} (${server})` },
    namespace: providerName(server),
  });
}

/**
 * Annotations only tighten unless the server is trusted: a destructive hint is always believed,
 * a read-only hint only from a trusted server. Per the MCP spec a tool that is not read-only is
 * destructive unless it says otherwise.
 */
export function actionFor(hints: NonNullable<RemoteTool["annotations"]>, trusted: boolean): string {
  if (hints.destructiveHint === true) return MCP_ACTIONS.destructive;
  if (!trusted) return MCP_ACTIONS.call;
  if (hints.readOnlyHint === true) return MCP_ACTIONS.read;
  return hints.destructiveHint === false ? MCP_ACTIONS.write : MCP_ACTIONS.destructive;
}

function describe(remote: RemoteTool, server: string): string {
  const text = (remote.description ?? "").trim();
  if (text !== "") return text;
  return `${remote.title ?? remote.name} (tool from MCP server ${server}; it gave no description)`;
}

/** Content always; structuredContent checked against the server's outputSchema when it gave one. */
function outputSchemaFor(remote: JsonSchema | undefined): JsonSchema {
  const properties: Record<string, unknown> = {
    content: { type: "array", items: { type: "object", required: ["type"] } },
  };
  // definitions move to the root so the server's "#/definitions/..." refs still resolve
  let definitions: unknown;
  if (remote) {
    const { $schema: _dialect, definitions: defs, ...rest } = normaliseRawSchema(remote);
    definitions = defs;
    properties.structuredContent = rest;
  } else properties.structuredContent = { type: "object" };
  const required = remote ? ["content", "structuredContent"] : ["content"];
  return { type: "object", properties, required, ...(definitions ? { definitions } : {}) };
}

/** Content blocks as the server sent them; a structured-only result becomes its JSON text. */
export function renderOutput(value: McpToolOutput): RenderedOutput {
  if (value.content.length > 0) return { content: value.content };
  if (value.structuredContent !== undefined) return JSON.stringify(value.structuredContent, null, 2);
  return "(the tool returned no content)";
}
