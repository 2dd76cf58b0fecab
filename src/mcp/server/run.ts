import type { AnyTool, ModelContent, ToolContext } from "../../declare/types.js";
import { formatIssues } from "../../declare/validate.js";
import type { ToolCall, ToolErrorCode, ToolResult } from "../../execute/types.js";

/** The one dependency the MCP server has on execution: run a call as the host would. */
export type RunCall = (call: ToolCall, signal: AbortSignal) => Promise<ToolResult>;

export interface BasicRunOptions {
  lookup: (name: string) => Promise<AnyTool | undefined>;
  context: Omit<ToolContext, "signal">;
  defaultTimeoutMs: number;
}

/**
 * A stand-in for the execution host, so `toolplane serve` works before the host is merged: it
 * validates arguments, runs with an AbortSignal timeout, validates the output and renders it.
 * It applies NO permissions and NO result limits or spill: the host's run must replace it.
 */
export function basicRun(options: BasicRunOptions): RunCall {
  return async (call, signal) => {
    const fail = (code: ToolErrorCode, message: string): ToolResult => ({
      ...(call.id !== undefined ? { id: call.id } : {}),
      tool: call.tool,
      isError: true,
      content: [{ type: "text", text: message }],
      truncated: false,
      error: { code, message },
    });
    const tool = await options.lookup(call.tool);
    if (!tool)
      return fail("unknown_tool", `no tool named "${call.tool}" in this scope; list the tools again`);
    let args = call.args;
    if (typeof args === "string") {
      try {
        args = JSON.parse(args);
      } catch (error) {
        return fail("invalid_json", `the arguments are not valid JSON: ${(error as Error).message}`);
      }
    }
    const input = tool.validateInput(args ?? {});
    if (!input.ok) return fail("invalid_arguments", `invalid arguments:\n${formatIssues(input.issues)}`);
    const timeoutMs = tool.host.timeoutMs ?? options.defaultTimeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = AbortSignal.any([signal, timeout]);
    let value: unknown;
    try {
      value = await Promise.race([
        Promise.resolve(tool.host.execute(input.value, { ...options.context, signal: combined })),
        new Promise<never>((_, reject) => {
          combined.addEventListener("abort", () => reject(combined.reason), { once: true });
        }),
      ]);
    } catch (error) {
      if (timeout.aborted) return fail("timeout", `the call timed out after ${timeoutMs} ms`);
      if (signal.aborted) return fail("aborted", "the call was cancelled");
      return fail("tool_error", error instanceof Error ? error.message : String(error));
    }
    const output = tool.validateOutput(value);
    if (!output.ok) {
      return fail(
        "invalid_output",
        `the tool returned a value its output schema rejects:\n${formatIssues(output.issues)}`,
      );
    }
    const rendered = tool.host.output.render(output.value);
    const content: ModelContent[] =
      typeof rendered === "string" ? [{ type: "text", text: rendered }] : rendered.content;
    const result: ToolResult = {
      ...(call.id !== undefined ? { id: call.id } : {}),
      tool: call.tool,
      isError: false,
      content,
      truncated: typeof rendered === "string" ? false : rendered.truncated === true,
    };
    if (typeof rendered !== "string" && rendered.nextOffset !== undefined)
      result.nextOffset = rendered.nextOffset;
    return result;
  };
}
