// The host's side of hooks (src/hooks runs and combines them): a hook's refusal as the call's
// failure, its arguments checked like a model's, its allow as an allow rule, its notes in the result.
import type { AnyTool } from "../declare/types.js";
import {
  type CallHooks,
  contextNote,
  type HookEntry,
  hookLabel,
  type PermissionVerdict,
  toolArgsFromHook,
} from "../hooks/index.js";
import type { SourcedRule } from "../permissions/rules.js";
import { checkArguments, parseArgs } from "./args.js";
import { CallFailure } from "./failure.js";
import type { AskRequest } from "./host-types.js";
import { limitErrorText, type ResultLimits } from "./limits.js";
import type { ToolResult } from "./types.js";

/** What the PreToolUse hooks leave for the permission check. */
export interface PreOutcome {
  args: Record<string, unknown>;
  /** A hook's allow, as an allow rule for the whole tool (it never passes what such a rule could not). */
  allow?: SourcedRule;
  /** A hook's ask: the call asks even where the rules allow it. */
  ask?: { origin: string; reason?: string };
}

/** One call's hooks, from its arguments to its result. */
export class HookSteps {
  private ran = false;
  private args: Record<string, unknown> = {};
  private readonly notes: string[] = [];

  constructor(
    readonly hooks: CallHooks,
    private readonly tool: AnyTool,
    private readonly namespace: string,
  ) {}

  /** PreToolUse: a deny, block or unanswered hook refuses the call; updatedInput is checked like a model's. */
  async before(args: Record<string, unknown>): Promise<PreOutcome> {
    const verdict = await this.hooks.pre(args);
    if (verdict === undefined) return { args };
    for (const c of verdict.context) this.notes.push(contextNote(c.entry, c.text));
    if (verdict.refuse) throw new CallFailure(verdict.refuse.code, verdict.refuse.message);
    const out: PreOutcome = { args };
    if (verdict.updatedInput)
      out.args = this.argsFrom(verdict.updatedInput.value, verdict.updatedInput.entry);
    if (verdict.allow) {
      const name = this.tool.name;
      out.allow = {
        rule: { effect: "allow", tool: name },
        origin: `the ${hookLabel(verdict.allow.entry)} (its allow counts as an allow rule for ${name} would)`,
        layer: "hook",
      };
    }
    if (verdict.ask) {
      out.ask = { origin: `the ${hookLabel(verdict.ask.entry)}` };
      if (verdict.ask.reason !== undefined) out.ask.reason = verdict.ask.reason;
    }
    return out;
  }

  /** A hook's replacement arguments, in the tool's own names and checked against its schema. */
  argsFrom(input: Record<string, unknown>, entry: HookEntry): Record<string, unknown> {
    const args = toolArgsFromHook(this.tool.name, this.namespace, input);
    try {
      // the depth check a model's arguments get, before a validator recurses into them
      const parsed = parseArgs(args, Number.POSITIVE_INFINITY);
      if (!parsed.ok) throw new CallFailure(parsed.code, parsed.message);
      return checkArguments(this.tool, parsed.value);
    } catch (error) {
      if (!(error instanceof CallFailure)) throw error;
      throw new CallFailure(
        "hook_error",
        `the ${hookLabel(entry)} replaced the arguments with ones that do not fit ${this.tool.name}'s schema, so it was not run:\n${error.message.replace(/\nFix [^\n]*$/, "")}`,
      );
    }
  }

  /** PermissionRequest: the hooks' answer to an ask (undefined when none matched). */
  permission(args: Record<string, unknown>, ask: AskRequest): Promise<PermissionVerdict | undefined> {
    const pending = ask.pending ?? [{ request: ask.request, decision: ask.decision }];
    const asks = pending.map(({ request, decision }) => {
      const part: { action?: string; subject: string; reason: string } = {
        subject: decision.subject,
        reason: decision.decidedBy.origin,
      };
      if (request.action !== undefined) part.action = request.action;
      return part;
    });
    return this.hooks.permission(args, ask.decision.message, asks);
  }

  /** The tool is about to run with these arguments: Post hooks will run on its result. */
  started(args: Record<string, unknown>): void {
    this.ran = true;
    this.args = args;
  }

  /**
   * PostToolUse (or PostToolUseFailure when the tool ran and failed) runs; what every hook told
   * the model goes after the result, one labelled line each, within the result limits; the runs
   * go in `result.hooks`.
   */
  async finish(result: ToolResult, limits: ResultLimits): Promise<ToolResult> {
    const notes = [...this.notes];
    if (this.ran) {
      const verdict = result.isError
        ? await this.hooks.failure(this.args, result.error ?? { code: "tool_error", message: "" })
        : await this.hooks.post(this.args, result.value, textOf(result));
      if (verdict) notes.push(...verdict.notes);
    }
    if (notes.length > 0) {
      const cut = limitErrorText(notes.join("\n"), limits);
      result.content = [...result.content, { type: "text", text: cut.text }];
      if (cut.cut) result.truncated = true;
    }
    if (this.hooks.runs.length > 0) result.hooks = this.hooks.runs;
    return result;
  }
}

function textOf(result: ToolResult): string {
  return result.content
    .filter((b) => b.type === "text")
    .map((b) => (b as { text: string }).text)
    .join("\n");
}
