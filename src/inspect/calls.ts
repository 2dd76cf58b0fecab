import { randomUUID } from "node:crypto";
import type { Toolplane } from "../assemble/index.js";
import { displayCall } from "../declare/display.js";
import type { AskRequest, DecisionEvent, HookEvent } from "../execute/index.js";
import type { Decision } from "../permissions/index.js";
import type { AskView, CallView, TraceEntry } from "./api-types.js";

/** An ask nobody answers is denied after this long (the call does not hang forever). */
export const ASK_TIMEOUT_MS = 10 * 60_000;

/**
 * Asks put to the person in the page. The host waits on each until the page answers (approve or
 * deny), the time runs out, or the inspector closes: an ask is never approved by itself.
 */
export class AskBroker {
  private readonly pending = new Map<string, { view: AskView; settle: (ok: boolean) => void }>();

  constructor(
    private readonly onChange: () => void,
    private readonly timeoutMs = ASK_TIMEOUT_MS,
  ) {}

  ask(req: AskRequest): Promise<boolean> {
    const id = randomUUID();
    const asking = req.pending ?? [{ request: req.request, decision: req.decision }];
    const view: AskView = {
      id,
      tool: req.tool,
      message: req.decision.message,
      requests: asking.map((a) => {
        const r: AskView["requests"][number] = {
          subject: a.decision.subject,
          decidedBy: describeDecider(a.decision),
        };
        if (a.request.action !== undefined) r.action = a.request.action;
        return r;
      }),
      args: typeof req.call.args === "string" ? req.call.args : JSON.stringify(req.call.args),
    };
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => settle(false), this.timeoutMs);
      const settle = (ok: boolean) => {
        clearTimeout(timer);
        if (!this.pending.delete(id)) return;
        resolve(ok);
        this.onChange();
      };
      this.pending.set(id, { view, settle });
      this.onChange();
    });
  }

  /** The page's answer; false when no such ask is waiting (answered already, or timed out). */
  answer(id: string, approve: boolean): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    p.settle(approve);
    return true;
  }

  list(): AskView[] {
    return [...this.pending.values()].map((p) => p.view);
  }

  /** Denies every waiting ask (the inspector is closing). */
  denyAll(): void {
    for (const p of [...this.pending.values()]) p.settle(false);
  }
}

/**
 * Runs one call through the session's host, as a model's call runs: validation, permissions
 * (asks go to the page), limits and spill. A deferred tool is loaded first, as `toolplane call`
 * does for a person who names it. Returns the model-facing result and the permission trace.
 */
export async function runCall(
  plane: Toolplane,
  asks: AskBroker,
  tool: string,
  args: unknown,
): Promise<CallView> {
  const trace: TraceEntry[] = [];
  if ((await plane.load([tool])).length > 0)
    trace.push({
      kind: "note",
      message: `${tool} is deferred: loaded for this call, as tool_search would load it for the model`,
    });
  const host = plane.host({
    ask: async (req) => {
      const approved = await asks.ask(req);
      trace.push({
        kind: "ask",
        message: req.decision.message,
        effect: "ask",
        decidedBy: describeDecider(req.decision),
        subject: req.decision.subject,
        approved,
      });
      return approved;
    },
    onDecision: (event) => trace.push(decisionEntry(event)),
    onHook: (event) => trace.push(hookEntry(event)),
  });
  const entry = (await plane.toolSnapshot()).get(tool)?.entry;
  const shown = entry ? displayCall(entry, args ?? {}) : undefined;
  const started = performance.now();
  // the arguments go to the host as JSON text, as a model's do
  const result = await host.call({ tool, args: JSON.stringify(args ?? {}) });
  const view: CallView = { result, trace, ms: Math.round(performance.now() - started) };
  if (shown) view.summary = shown.summary ? `${shown.title}: ${shown.summary}` : shown.title;
  return view;
}

function decisionEntry(event: DecisionEvent): TraceEntry {
  const d = event.decision;
  const entry: TraceEntry = {
    kind: "decision",
    message: d.message,
    effect: d.effect,
    decidedBy: describeDecider(d),
    subject: d.subject,
  };
  if (d.decidedBy.rule !== undefined) entry.rule = d.decidedBy.rule;
  if (event.request?.action !== undefined) entry.action = event.request.action;
  return entry;
}

/** A hook that ran, as the trace shows it: what it decided (if anything) and what it said. */
function hookEntry(event: HookEvent): TraceEntry {
  const r = event.run;
  const said = [
    r.reason,
    r.additionalContext !== undefined ? `adds: ${r.additionalContext}` : undefined,
    r.updatedInput ? `replaced the arguments${r.ignored ? ` (not used: ${r.ignored})` : ""}` : undefined,
    r.detail,
    r.stop !== undefined ? `asks to stop: ${r.stop}` : undefined,
  ].filter((x) => x !== undefined);
  const entry: TraceEntry = {
    kind: "hook",
    message: said.length > 0 ? said.join("; ") : r.status === "ok" ? "answered nothing" : r.status,
    decidedBy: `${r.event} hook ${r.hook} (${r.source})`,
    subject: r.event,
    hook: { event: r.event, status: r.status, ms: r.ms },
  };
  if (r.decision !== undefined) entry.effect = r.decision;
  return entry;
}

function describeDecider(d: Decision): string {
  return d.decidedBy.origin;
}
