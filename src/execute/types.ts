import type { ModelContent } from "../declare/types.js";
import type { HookRun } from "../hooks/types.js";

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
  | "output_too_large"
  /** A hook could not answer (over its timeout) or broke the call (arguments that do not fit). */
  | "hook_error";

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
  /**
   * The hooks that ran on the call, each with what it decided (never sent to a model: what a hook
   * tells the model is in `content`, labelled). A run with `stop` asks the harness to stop its loop.
   */
  hooks?: HookRun[];
}
