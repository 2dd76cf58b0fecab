import { baseSdk } from "../sdk.js";
import {
  answerProblems,
  type ElicitationAnswer,
  type ElicitationHandler,
  ElicitationRefused,
  readElicitation,
} from "./elicitation.js";

/** Requests a server may have waiting for an answer at once; more are refused at once. */
export const MAX_PENDING_ELICITATIONS = 4;

/**
 * Answers one server's `elicitation/create` requests through the harness's handler (the CLI's
 * prompt or `--yes`), one at a time: a person answers one question before the next is shown. What
 * the server asks is checked first and what the handler answers is checked against it; either
 * failing is a JSON-RPC error to the server (invalid params), never an answer that does not fit.
 */
export class ElicitationAnswerer {
  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;

  constructor(
    private readonly server: string,
    private readonly handler: ElicitationHandler,
  ) {}

  async answer(params: unknown, signal: AbortSignal): Promise<ElicitationAnswer> {
    const { ErrorCode } = baseSdk();
    let form: ReturnType<typeof readElicitation>;
    try {
      form = readElicitation(params);
    } catch (error) {
      if (error instanceof ElicitationRefused) throw rpcError(ErrorCode.InvalidParams, error.message);
      throw error;
    }
    if (this.pending >= MAX_PENDING_ELICITATIONS)
      throw rpcError(
        ErrorCode.InvalidParams,
        `toolplane refused the elicitation request: ${MAX_PENDING_ELICITATIONS} are already waiting for an answer`,
      );
    this.pending++;
    const turn = this.queue.then(async () => {
      if (signal.aborted) return { action: "cancel" } as const;
      return this.handler({
        server: this.server,
        message: form.message,
        fields: form.fields,
        requestedSchema: form.schema,
        signal,
      });
    });
    this.queue = turn.catch(() => {});
    let answer: ElicitationAnswer;
    try {
      answer = await turn;
    } finally {
      this.pending--;
    }
    const action = (answer as { action?: unknown } | undefined)?.action;
    if (action === "decline" || action === "cancel") return { action };
    if (action !== "accept")
      throw rpcError(
        ErrorCode.InternalError,
        `the elicitation handler answered ${JSON.stringify(action)}, not accept, decline or cancel`,
      );
    const content = (answer as { content?: unknown }).content ?? {};
    const problems = answerProblems(form.fields, content);
    if (problems.length > 0)
      throw rpcError(
        ErrorCode.InternalError,
        `the answer to the elicitation did not fit its form: ${problems.join("; ")}`,
      );
    return { action: "accept", content: content as Record<string, never> };
  }
}

/**
 * The error a request handler throws to answer with this code and message. Not an McpError: the
 * SDK sends a thrown error's message as it is, and McpError's starts with "MCP error -32602: ",
 * which the other side's McpError then prefixes again.
 */
function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}
