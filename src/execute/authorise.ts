import { ArgumentsError } from "../declare/errors.js";
import type { AnyTool, ToolSession } from "../declare/types.js";
import { type Decision, evaluatePermission, type PermissionRequest } from "../permissions/evaluate.js";
import { buildPermissionRequests, type RequestEnv } from "../permissions/request.js";
import { CallFailure, messageOf, refusedArguments } from "./failure.js";
import type { HookSteps, PreOutcome } from "./hook-steps.js";
import type { AskRequest, HostOptions } from "./host-types.js";
import type { ToolCall } from "./types.js";

export interface Authorised {
  /** The arguments that run (a PermissionRequest hook may have replaced them). */
  args: Record<string, unknown>;
  /** The ask the call was approved under, if it asked. */
  approved?: Decision;
  env: RequestEnv;
}

type Decided = Array<{ request: PermissionRequest; decision: Decision }>;

/**
 * Decides calls for one host: every permission request of a call evaluated (deny wins over ask),
 * and the asks of one call answered together, one call's asks at a time: by the PermissionRequest
 * hooks first, then the approver when no hook decided.
 */
export class Authoriser {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly options: HostOptions,
    private readonly session: ToolSession,
  ) {}

  async authorise(
    call: ToolCall,
    tool: AnyTool,
    namespace: string,
    pre: PreOutcome,
    hooks: HookSteps | undefined,
  ): Promise<Authorised> {
    const spillDir = await this.options.spill.existing();
    const env: RequestEnv = {
      cwd: this.options.cwd,
      workspace: this.options.workspace,
      extraRoots: [...(this.options.extraRoots ?? []), ...(spillDir ? [spillDir] : [])],
    };
    const asks = await this.decide(call, tool, namespace, pre, env);
    if (asks === undefined) return { args: pre.args, env };
    const ask = this.options.ask;
    const answered = await this.serial(async () => {
      const verdict = hooks ? await hooks.permission(pre.args, asks) : undefined;
      if (verdict?.deny || verdict?.allow) return verdict;
      return { approved: await approve(ask, asks) };
    });
    if ("deny" in answered && answered.deny) throw new CallFailure(answered.deny.code, answered.deny.message);
    if ("allow" in answered && answered.allow) {
      const replaced = answered.allow.updatedInput;
      if (replaced === undefined || hooks === undefined)
        return { args: pre.args, approved: asks.decision, env };
      // the new arguments are checked as if the model had sent them; what they ask goes to the approver
      const args = hooks.argsFrom(replaced, answered.allow.entry);
      const again = await this.decide(call, tool, namespace, { args }, env);
      if (again === undefined) return { args, env };
      if (!(await this.serial(() => approve(ask, again))))
        throw notApproved(again.decision, ask !== undefined);
      return { args, approved: again.decision, env };
    }
    if (!("approved" in answered) || !answered.approved) throw notApproved(asks.decision, ask !== undefined);
    return { args: pre.args, approved: asks.decision, env };
  }

  /** Evaluates every request of the call; throws on a deny; returns its asks as one request (or none). */
  private async decide(
    call: ToolCall,
    tool: AnyTool,
    namespace: string,
    pre: PreOutcome,
    env: RequestEnv,
  ): Promise<AskRequest | undefined> {
    let requests: PermissionRequest[];
    try {
      requests = await buildPermissionRequests(tool, namespace, pre.args, {
        ...env,
        config: this.options.config,
        session: this.session,
      });
    } catch (error) {
      if (error instanceof ArgumentsError) throw refusedArguments(tool.name, error);
      throw new CallFailure(
        "tool_error",
        `${tool.name} could not state its permissions: ${messageOf(error)}`,
      );
    }
    const base = this.options.policy;
    const policy = pre.allow ? { ...base, rules: [...base.rules, pre.allow] } : base;
    // every request is decided; deny wins over ask, and the asks of one call are approved together
    const decided: Decided = requests.map((request) => ({
      request,
      decision: evaluatePermission(request, policy),
    }));
    if (pre.ask && requests[0] && !decided.some((d) => d.decision.effect === "deny")) {
      const why = pre.ask.reason ? `: ${pre.ask.reason}` : "";
      decided.push({
        request: requests[0],
        decision: {
          effect: "ask",
          decidedBy: { origin: pre.ask.origin },
          subject: "the call",
          message: `${tool.name} needs approval for the call by ${pre.ask.origin}${why}`,
        },
      });
    }
    for (const d of decided) this.options.onDecision?.({ call, tool: tool.name, ...d });
    const denied = decided.find((d) => d.decision.effect === "deny");
    if (denied) {
      throw new CallFailure(
        "permission_denied",
        `${denied.decision.message}. Do not retry this call as it is.`,
      );
    }
    const asks = decided.filter((d) => d.decision.effect === "ask");
    if (asks.length === 0) return undefined;
    const first = asks[0]!;
    const messages = [...new Set(asks.map((a) => a.decision.message))];
    const decision =
      messages.length === 1 ? first.decision : { ...first.decision, message: messages.join("; ") };
    const request: AskRequest = { call, tool: tool.name, decision, request: first.request };
    if (asks.length > 1 || requests.length > 1) request.pending = asks;
    return request;
  }

  /**
   * One ask about a file a call reaches (ctx.paths.approve), in the same chain: a PermissionRequest
   * hook's allow or deny answers it, else the approver (a replacement of the arguments means
   * nothing here and is not used).
   */
  askPath(ask: AskRequest, args: Record<string, unknown>, hooks: HookSteps | undefined): Promise<boolean> {
    const approver = this.options.ask;
    return this.serial(async () => {
      const verdict = hooks ? await hooks.permission(args, ask) : undefined;
      if (verdict?.deny) return false;
      if (verdict?.allow) return true;
      return approve(approver, ask);
    });
  }

  /** Runs fn after every ask before it settled: asks are put one at a time. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/** The approver's answer; only true approves, and a throw denies. */
async function approve(ask: HostOptions["ask"], request: AskRequest): Promise<boolean> {
  if (!ask) return false;
  try {
    return (await ask(request)) === true;
  } catch {
    return false;
  }
}

function notApproved(decision: Decision, hasApprover: boolean): CallFailure {
  return new CallFailure(
    "permission_denied",
    `${decision.message}, and it was not approved${hasApprover ? "" : " (no approver is attached, so every ask is denied)"}.`,
  );
}
