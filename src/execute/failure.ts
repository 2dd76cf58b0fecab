import { ArgumentsError } from "../declare/errors.js";
import { OutputTooLargeError } from "./errors.js";
import type { ToolErrorCode } from "./types.js";

export class CallFailure extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
    readonly partial?: { text: string; spillPath?: string },
  ) {
    super(message);
  }
}

/** Runs fn under a timeout and the turn's signal; a tool that ignores its signal is abandoned. */
export async function runWithTimeout<T>(
  fn: () => T | Promise<T>,
  controller: AbortController,
  ms: number,
  turnSignal: AbortSignal | undefined,
): Promise<T> {
  const onTurnAbort = () => controller.abort(turnSignal?.reason ?? new Error("aborted"));
  if (turnSignal?.aborted) onTurnAbort();
  turnSignal?.addEventListener("abort", onTurnAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new TimeoutSignal()), ms);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(controller.signal.reason);
    if (controller.signal.aborted) onAbort();
    else controller.signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([Promise.resolve().then(fn), aborted]);
  } finally {
    clearTimeout(timer);
    turnSignal?.removeEventListener("abort", onTurnAbort);
    if (onAbort) controller.signal.removeEventListener("abort", onAbort);
    aborted.catch(() => {});
  }
}

class TimeoutSignal extends Error {
  constructor() {
    super("timed out");
    this.name = "TimeoutError";
  }
}

/** True when the host itself stopped the tool because its output reached results.spillMaxBytes. */
export function stoppedForOutput(controller: AbortController): boolean {
  const reason = controller.signal.reason;
  return controller.signal.aborted && reason instanceof CallFailure && reason.code === "output_too_large";
}

export function describeRunError(
  error: unknown,
  tool: string,
  timeout: { ms: number; source: string },
  controller: AbortController,
  turnSignal: AbortSignal | undefined,
  partial: { text: string; spillPath?: string } | undefined,
): CallFailure {
  const reason = controller.signal.aborted ? controller.signal.reason : undefined;
  if (reason instanceof TimeoutSignal) {
    return new CallFailure(
      "timeout",
      `${tool} did not finish within ${timeout.ms} ms (${timeout.source}) and was stopped. ` +
        "Try a smaller or narrower request.",
      partial,
    );
  }
  if (turnSignal?.aborted)
    return new CallFailure("aborted", `${tool} was stopped: the turn was cancelled.`, partial);
  if (error instanceof OutputTooLargeError)
    return new CallFailure("output_too_large", `${tool}: ${error.message}`);
  if (error instanceof CallFailure) return error;
  if (error instanceof ArgumentsError) return refusedArguments(tool, error);
  return new CallFailure("tool_error", `${tool} failed: ${messageOf(error)}`, partial);
}

/** A tool's own refusal of its arguments (ArgumentsError), as the model reads a schema's. */
export function refusedArguments(tool: string, error: ArgumentsError): CallFailure {
  return new CallFailure("invalid_arguments", `invalid arguments for ${tool}: ${error.message}`);
}

export function asFailure(error: unknown): CallFailure {
  if (error instanceof CallFailure) return error;
  return new CallFailure("tool_error", `the host could not run the call: ${messageOf(error)}`);
}

export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === "string" ? error : (JSON.stringify(error) ?? String(error));
}
