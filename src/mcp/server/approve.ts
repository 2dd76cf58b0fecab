// Approvals over `toolplane serve`: a call that needs approval is put to the MCP client's user as
// an elicitation (what would run, why it asks, the rule that would allow it for good). Accept runs
// it; decline, cancel, no answer within the time or a client that cannot ask deny it, and the
// denial says how to allow it. The approver is an AskCallback like any other, so a harness's own
// checks (a PermissionRequest hook) can run first and it is asked only when they leave the ask open.
import type { ClientHandlers } from "../../declare/client.js";
import type { AskCallback, AskRequest } from "../../execute/host-types.js";
import type { ToolCall, ToolResult } from "../../execute/types.js";
import type { PermissionRequest } from "../../permissions/evaluate.js";

/** The rule (as JSON) that would allow this request without asking. */
export function ruleFor(request: PermissionRequest): Record<string, string> {
  const rule: Record<string, string> = { effect: "allow" };
  const path = request.paths[0];
  if (request.action !== undefined) rule.action = request.action;
  else rule.tool = request.tool;
  if (path) rule.path = path.relative ?? path.lexical;
  else if (request.patterns[0] !== undefined) rule.pattern = request.patterns[0];
  return rule;
}

/** The question the user reads: which tool, what each request would do, why it asks, the rule. */
export function approvalMessage(ask: AskRequest): string {
  const lines = [`${ask.tool} needs your approval to run.`];
  for (const { request, decision } of ask.pending ?? [{ request: ask.request, decision: ask.decision }]) {
    const action = request.action === undefined ? "" : `${request.action} `;
    lines.push(`- ${action}${decision.subject}: asks because of ${decision.decidedBy.origin}`);
    lines.push(`  a rule that would allow it: ${JSON.stringify(ruleFor(request))}`);
  }
  lines.push("Accept runs it once; decline denies it.");
  return lines.join("\n");
}

/** Added to a denial so the user (or the model, telling them) knows how to allow the call. */
function howToAllow(ask: AskRequest): string {
  return (
    `To allow it, restart toolplane serve with --yes (approves every ask), or add the permission rule ` +
    `${JSON.stringify(ruleFor(ask.request))} to permissions.rules in .toolplane/config.json.`
  );
}

/**
 * The approvals of one serve session. `run` registers each call's client (its MCP request) while
 * it runs, so the approver asks the client of the call that asked; `ask` is the host's approver.
 */
export class ElicitingApprover {
  private readonly clients = new Map<string, ClientHandlers | undefined>();
  private readonly notes = new Map<string, string>();

  constructor(private readonly timeoutMs: number) {}

  readonly ask: AskCallback = async (ask) => {
    const id = ask.call.id;
    const client = id === undefined ? undefined : this.clients.get(id);
    const note = (text: string) => {
      if (id !== undefined) this.notes.set(id, text);
      return false;
    };
    if (!client?.onElicit)
      return note(`This MCP client cannot ask its user (it did not declare elicitation). ${howToAllow(ask)}`);
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const answer = await client.onElicit(
        { message: approvalMessage(ask), requestedSchema: { type: "object", properties: {} } },
        signal,
      );
      if (answer.action === "accept") return true;
      return note(
        `The user ${answer.action === "decline" ? "declined" : "dismissed"} it. ${howToAllow(ask)}`,
      );
    } catch (error) {
      const why = signal.aborted
        ? `No answer came within ${this.timeoutMs} ms (serve.askTimeoutMs).`
        : `Asking the user failed: ${(error as Error).message}.`;
      return note(`${why} ${howToAllow(ask)}`);
    }
  };

  /** Runs one call with its client registered; a denial this approver made says how to allow the call. */
  async run(
    call: ToolCall & { id: string },
    client: ClientHandlers | undefined,
    run: () => Promise<ToolResult>,
  ): Promise<ToolResult> {
    this.clients.set(call.id, client);
    try {
      const result = await run();
      const note = this.notes.get(call.id);
      if (note && result.isError && result.error?.code === "permission_denied") return withNote(result, note);
      return result;
    } finally {
      this.clients.delete(call.id);
      this.notes.delete(call.id);
    }
  }
}

function withNote(result: ToolResult, note: string): ToolResult {
  const [first, ...rest] = result.content;
  const text = first?.type === "text" ? `${first.text} ${note}` : note;
  return {
    ...result,
    content: [{ type: "text", text }, ...(first?.type === "text" ? rest : result.content)],
    ...(result.error ? { error: { ...result.error, message: `${result.error.message} ${note}` } } : {}),
  };
}
