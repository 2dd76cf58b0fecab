import { randomUUID } from "node:crypto";
import { hookToolInput, hookToolName } from "./claude-input.js";
import {
  combinePermission,
  combinePost,
  combinePre,
  hookLabel,
  type PermissionVerdict,
  type PostVerdict,
  type PreVerdict,
} from "./combine.js";
import { type HookContext, type HookSet, runHooks } from "./hook-set.js";
import type { HookAnswer, HookEventName, HookInput, HookRun } from "./types.js";

/** The call the hooks are about. */
export interface HookedCall {
  id?: string;
  tool: string;
  namespace: string;
}

/**
 * The hooks of one call: builds each event's input (Claude Code's fields, the same
 * `tool_use_id` for every event of the call), runs the matching hooks, combines their answers,
 * and reports each run (onRun, and the user's log for errors and systemMessages).
 */
export class CallHooks {
  readonly runs: HookRun[] = [];
  /** A hook's `continue: false`: the harness should stop after this call. */
  stop: string | undefined;
  private readonly toolUseId: string;

  constructor(
    private readonly set: HookSet,
    private readonly ctx: HookContext,
    private readonly call: HookedCall,
    private readonly signal: AbortSignal | undefined,
    private readonly onRun?: (run: HookRun) => void,
  ) {
    this.toolUseId = call.id ?? `toolplane_${randomUUID()}`;
  }

  /** The arguments as a hook reads them in `tool_input` (Claude Code's names for a built-in). */
  toolInput(args: Record<string, unknown>): Record<string, unknown> {
    return hookToolInput(this.call.tool, this.call.namespace, args, this.ctx.cwd);
  }

  pre(args: Record<string, unknown>): Promise<PreVerdict | undefined> {
    return this.decide("PreToolUse", args, {}, (answers) =>
      combinePre(answers, this.toolInput(args), this.call.tool),
    );
  }

  permission(
    args: Record<string, unknown>,
    reason: string,
    asks: Array<{ action?: string; subject: string; reason: string }>,
  ): Promise<PermissionVerdict | undefined> {
    const extra = { permission_suggestions: [], decision_reason: reason, toolplane_asks: asks };
    return this.decide("PermissionRequest", args, extra, (answers) =>
      combinePermission(answers, this.toolInput(args), this.call.tool),
    );
  }

  post(args: Record<string, unknown>, value: unknown, output: string): Promise<PostVerdict | undefined> {
    const extra: Partial<HookInput> = { tool_output: output };
    if (value !== undefined) extra.tool_response = value;
    return this.decide("PostToolUse", args, extra, combinePost, false);
  }

  failure(
    args: Record<string, unknown>,
    error: { code: string; message: string },
  ): Promise<PostVerdict | undefined> {
    const extra = { error: error.message, error_code: error.code, is_interrupt: error.code === "aborted" };
    return this.decide("PostToolUseFailure", args, extra, combinePost, false);
  }

  /**
   * Runs the event's matching hooks and combines their answers (undefined when none matched).
   * The turn's cancel stops the hooks before a call; those after it run on (to their timeouts),
   * so a PostToolUseFailure hook sees `is_interrupt`.
   */
  private async decide<V extends { runs: HookRun[] }>(
    event: HookEventName,
    args: Record<string, unknown>,
    extra: Partial<HookInput>,
    combine: (answers: readonly HookAnswer[]) => V,
    cancellable = true,
  ): Promise<V | undefined> {
    const answers = await this.run(event, args, extra, cancellable ? this.signal : undefined);
    if (answers === undefined) return undefined;
    const verdict = combine(answers);
    this.report(answers, verdict.runs);
    return verdict;
  }

  private async run(
    event: HookEventName,
    args: Record<string, unknown>,
    extra: Partial<HookInput>,
    signal: AbortSignal | undefined,
  ): Promise<HookAnswer[] | undefined> {
    const entries = this.set.matching(event, this.call.tool, this.call.namespace);
    if (entries.length === 0) return undefined;
    const input: HookInput = {
      session_id: this.ctx.sessionId,
      cwd: this.ctx.cwd,
      permission_mode: "default",
      hook_event_name: event,
      tool_name: hookToolName(this.call.tool, this.call.namespace),
      tool_input: this.toolInput(args),
      tool_use_id: this.toolUseId,
      toolplane_tool_name: this.call.tool,
      ...extra,
    };
    return runHooks(entries, input, this.ctx, signal);
  }

  private report(answers: readonly HookAnswer[], runs: readonly HookRun[]): void {
    answers.forEach((a, i) => {
      const run = runs[i]!;
      this.runs.push(run);
      if (run.stop !== undefined) this.stop ??= run.stop;
      const label = `toolplane: ${hookLabel(a.entry)}`;
      if (a.status === "error") this.ctx.log?.(`${label} failed (the call goes on): ${a.detail}`);
      if (a.status === "failed") this.ctx.log?.(`${label} did not answer: ${a.detail}`);
      if (a.systemMessage !== undefined) this.ctx.log?.(`${label}: ${a.systemMessage}`);
      if (a.stop !== undefined) this.ctx.log?.(`${label} asks to stop: ${a.stop}`);
      try {
        this.onRun?.(run);
      } catch {
        // an observer's fault is not the call's
      }
    });
  }
}
