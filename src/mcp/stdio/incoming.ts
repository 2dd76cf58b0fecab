import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { baseSdk } from "../sdk.js";

/** The SDK's JSON-RPC error codes (loaded by the transport's start). */
const codes = () => baseSdk().ErrorCode;

/** A JSON-RPC error response; `id: null` when the request's id could not be read (JSON-RPC 2.0 §5). */
export interface ErrorReply {
  jsonrpc: "2.0";
  id: string | number | null;
  error: { code: number; message: string };
}

export type Incoming = { ok: true; message: JSONRPCMessage } | { ok: false; replies: ErrorReply[] };

const BATCH =
  "JSON-RPC batches are not supported (MCP removed them in protocol version 2025-06-18): send each message on its own line";

/**
 * Checks one line a client sent. The SDK's transports hand a line that fails the message schema to
 * onerror and answer nothing, so a client that sent a batch, forgot `"jsonrpc"` or gave `params` as
 * a string waited forever; here every such line gets a JSON-RPC error that says what to fix, with
 * the request's id when it has a usable one (each id of a batch gets its own).
 */
export function checkIncoming(line: string): Incoming {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return refuse(
      null,
      codes().ParseError,
      `Parse error: the message is not JSON (${(error as Error).message})`,
    );
  }
  if (Array.isArray(value)) {
    const ids = value.map(idOf).filter((id): id is string | number => id !== undefined);
    const replies = (ids.length > 0 ? ids : [null]).map((id) => reply(id, codes().InvalidRequest, BATCH));
    return { ok: false, replies };
  }
  const parsed = baseSdk().JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return { ok: true, message: parsed.data as JSONRPCMessage };
  const [code, problem] = whatIsWrong(value);
  return refuse(idOf(value) ?? null, code, `Invalid request: ${problem}`);
}

/** An error reply for a message that was too large to read. */
export function tooLarge(
  id: string | number | undefined,
  bytes: number,
  limit: number,
  key: string,
): ErrorReply {
  return reply(
    id ?? null,
    codes().InvalidRequest,
    `Invalid request: the message is ${bytes} bytes, over the limit of ${limit} bytes (${key}); it was not read`,
  );
}

function whatIsWrong(value: unknown): [number, string] {
  if (value === null || typeof value !== "object")
    return [codes().InvalidRequest, "a message must be a JSON object"];
  const m = value as Record<string, unknown>;
  if (m.jsonrpc === undefined) return [codes().InvalidRequest, 'the "jsonrpc": "2.0" member is missing'];
  if (m.jsonrpc !== "2.0") return [codes().InvalidRequest, '"jsonrpc" must be the string "2.0"'];
  if ("id" in m && idOf(m) === undefined) {
    return [codes().InvalidRequest, '"id" must be a string or an integer'];
  }
  if ("method" in m && typeof m.method !== "string")
    return [codes().InvalidRequest, '"method" must be a string'];
  if ("params" in m && (m.params === null || typeof m.params !== "object" || Array.isArray(m.params))) {
    return [codes().InvalidParams, '"params" must be an object'];
  }
  const allowed = new Set(["jsonrpc", "id", "method", "params", "result", "error"]);
  const extra = Object.keys(m).filter((k) => !allowed.has(k));
  if (extra.length > 0)
    return [codes().InvalidRequest, `unknown member(s) ${extra.map((k) => `"${k}"`).join(", ")}`];
  return [codes().InvalidRequest, "not a JSON-RPC request, notification or response"];
}

function idOf(value: unknown): string | number | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const id = (value as { id?: unknown }).id;
  return typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) ? id : undefined;
}

function refuse(id: string | number | null, code: number, message: string): Incoming {
  return { ok: false, replies: [reply(id, code, message)] };
}

function reply(id: string | number | null, code: number, message: string): ErrorReply {
  return { jsonrpc: "2.0", id, error: { code, message } };
}
