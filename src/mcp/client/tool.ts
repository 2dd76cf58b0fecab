import type { Ajv } from "ajv";
import { defineTool } from "../../declare/define-tool.js";
import { normaliseRawSchema } from "../../declare/json-schema.js";
import type {
  AnyTool,
  JsonSchema,
  ModelContent,
  RenderedOutput,
  ToolAnnotations,
} from "../../declare/types.js";
import { limitsFrom } from "../../execute/limits.js";
import { newAjv } from "../../util/ajv.js";
import { DEFAULT_CALL_TIMEOUT_MS, type McpServerConfig, providerName } from "../config.js";
import type { RawCallResult, RemoteTool } from "./connection.js";
import { fromMcpContent, textOf } from "./content.js";
import { hasRef, unresolvableRef } from "./schema-refs.js";

/** The canonical value of an MCP tool call: the server's content, and its structured value if any. */
export interface McpToolOutput {
  content: ModelContent[];
  structuredContent?: Record<string, unknown>;
}

export interface CallRemoteOptions {
  signal: AbortSignal;
  timeoutMs: number;
  /** results.rawMaxBytes of the calling host: the largest answer read. */
  maxMessageBytes?: number;
}

export type CallRemote = (
  rawName: string,
  args: Record<string, unknown>,
  options: CallRemoteOptions,
) => Promise<RawCallResult>;

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
let meta: Ajv | undefined;
const metaAjv = () => (meta ??= newAjv({ strict: false, validateSchema: true }));

export type Checked = { ok: true; tool: RemoteTool } | { ok: false; name: string; problem: string };

/** One listed tool checked before it becomes a toolplane tool: a bad one is reported, not fatal. */
export function checkRemoteTool(raw: unknown, index: number): Checked {
  const t = (raw ?? {}) as Record<string, unknown>;
  const name = typeof t.name === "string" && t.name !== "" ? t.name : `#${index}`;
  const fail = (problem: string): Checked => ({ ok: false, name, problem });
  if (name.startsWith("#")) return fail("the tool has no name");
  const input = checkSchema(t.inputSchema, "inputSchema");
  if (input) return fail(input);
  const inputRef = refProblem(t.inputSchema as JsonSchema, (s) => normaliseRawSchema(s));
  if (inputRef) return fail(`inputSchema: ${inputRef}; the tool could never be called`);
  if (t.outputSchema !== undefined) {
    const output = checkSchema(t.outputSchema, "outputSchema");
    if (output) return fail(output);
    const outputRef = refProblem(t.outputSchema as JsonSchema, outputSchemaFor);
    if (outputRef) return fail(`outputSchema: ${outputRef}; no result could be checked`);
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
    const ajv = metaAjv();
    if (!ajv.validateSchema(draft07)) {
      return `${field} is not valid JSON Schema: ${ajv.errorsText(ajv.errors)}`;
    }
  } catch (error) {
    return `${field} is not valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
  return undefined;
}

/** Checks references in the schema as the host will use it (normalised, or wrapped as the output). */
function refProblem(schema: JsonSchema, asUsed: (schema: JsonSchema) => JsonSchema): string | undefined {
  // most schemas have no $ref at all: only those pay for the copy that normalising makes
  if (!hasRef(schema)) return undefined;
  return unresolvableRef(asUsed(schema));
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
      const result = await opts.call(remote.name, args ?? {}, {
        signal: ctx.signal,
        timeoutMs,
        maxMessageBytes: limitsFrom(ctx.config).rawMaxBytes,
      });
      const content = Array.isArray(result.content)
        ? fromMcpContent(result.content)
        : result.content === undefined
          ? []
          : [{ type: "text" as const, text: "[the server sent content that is not a list of blocks]" }];
      if (result.isError === true) {
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
    annotations: passedOnHints(hints, trusted),
    namespace: providerName(server),
  });
}

/**
 * The hints `toolplane serve` passes on to its own clients: all of them from a trusted server;
 * from any other only those that warn (not read-only, destructive, open-world), since a client
 * may gate calls by them and an untrusted server's "harmless" must not loosen that.
 */
export function passedOnHints(
  hints: NonNullable<RemoteTool["annotations"]>,
  trusted: boolean,
): ToolAnnotations {
  const out: ToolAnnotations = {};
  if (typeof hints.title === "string") out.title = hints.title;
  const keep = (
    key: "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint",
    warns: boolean,
  ) => {
    const v = hints[key];
    if (typeof v === "boolean" && (trusted || v === warns)) out[key] = v;
  };
  keep("readOnlyHint", false);
  keep("destructiveHint", true);
  keep("idempotentHint", false);
  keep("openWorldHint", true);
  return out;
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
export function outputSchemaFor(remote: JsonSchema | undefined): JsonSchema {
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
