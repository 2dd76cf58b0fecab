import type { ModelContent } from "../declare/types.js";

/** One call the model made. `args` is the raw JSON text or an already-parsed value. */
export interface ToolCall {
  id?: string;
  tool: string;
  args: unknown;
}

export type ToolErrorCode =
  | "unknown_tool"
  | "invalid_json"
  | "invalid_arguments"
  | "permission_denied"
  | "timeout"
  | "aborted"
  | "tool_error"
  | "invalid_output"
  | "output_too_large";

/** What the model gets back for one call (also the `toolplane call --json` shape). */
export interface ToolResult {
  id?: string;
  tool: string;
  isError: boolean;
  content: ModelContent[];
  /** True when anything was cut; the text itself always says so too. */
  truncated: boolean;
  /** Present only when the result was a cut page: the offset to ask for next. */
  nextOffset?: number;
  /** Where the full output went when it was over the inline limit. */
  spillPath?: string;
  error?: { code: ToolErrorCode; message: string };
  /**
   * The canonical value the tool returned, before any rendering or cut (absent on errors). MCP
   * sends it as `structuredContent`; the limits apply to `content`, the text a model reads.
   */
  value?: unknown;
}
