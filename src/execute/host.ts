import type { AnyTool, ModelContent, RenderedOutput, ToolContext, ToolSession } from "../declare/types.js";
import { formatIssues } from "../declare/validate.js";
import { CallHooks } from "../hooks/index.js";
import { type Decision, deniedOutright, type PermissionRequest } from "../permissions/evaluate.js";
import { nearest } from "../util/nearest.js";
import { checkArguments, parseArgs } from "./args.js";
import { Authoriser } from "./authorise.js";
import { clientContext } from "./client-context.js";
import { OutputCollector } from "./collector.js";
import {
  asFailure,
  CallFailure,
  describeRunError,
  messageOf,
  runWithTimeout,
  stoppedForOutput,
} from "./failure.js";
import { HookSteps } from "./hook-steps.js";
import type { HostOptions, HostTool, HostToolSet, RunOptions } from "./host-types.js";
import { limitsFrom, limitText, type ResultLimits } from "./limits.js";
import { pathAccess } from "./path-access.js";
import { chooseTimeout, planGroups, runPool } from "./schedule.js";
import { newToolSession } from "./session.js";
import type { ToolCall, ToolResult } from "./types.js";

export type {
  AskCallback,
  AskRequest,
  CallRestorer,
  DecisionEvent,
  HookEvent,
  HostOptions,
  HostTool,
  HostToolSet,
  RunOptions,
} from "./host-types.js";

import { failed, ok, textBlock } from "./result.js";

const MAX_NAME_ECHO = 256;

/**
 * Runs one turn's tool calls and returns what the model gets back, in call order. Every failure
 * (unknown tool, bad JSON, bad arguments, denial, timeout, a throw, a wrong output shape) becomes
 * an `isError` result with a message that says what to do; nothing a tool does crashes the host.
 */
export class ExecutionHost {
  readonly session: ToolSession;
  private readonly auth: Authoriser;

  constructor(private readonly options: HostOptions) {
    this.session = options.session ?? newToolSession();
    this.auth = new Authoriser(options, this.session);
  }

  async call(call: ToolCall, run: RunOptions = {}): Promise<ToolResult> {
    const [result] = await this.run([call], run);
    return result!;
  }

  async run(calls: readonly ToolCall[], run: RunOptions = {}): Promise<ToolResult[]> {
    const set = await this.options.tools();
    const byName = new Map(set.tools.map((t) => [t.tool.name, t]));
    const safe = calls.map((c) => {
      const t = typeof c.tool === "string" ? byName.get(c.tool) : undefined;
      // a call that fails before running has no side effect, so it may share a parallel group
      return t === undefined || t.tool.host.concurrencySafe;
    });
    const results = new Array<ToolResult>(calls.length);
    const limit = numberOr(this.options.config["tools.maxConcurrency"], 10);
    for (const group of planGroups(safe)) {
      const tasks = group.map((i) => async () => {
        results[i] = await this.runOne(calls[i]!, set, byName, run);
      });
      await runPool(tasks, limit);
    }
    return results;
  }

  private async runOne(
    call: ToolCall,
    set: HostToolSet,
    byName: Map<string, HostTool>,
    run: RunOptions,
  ): Promise<ToolResult> {
    const given = typeof call.tool === "string" ? call.tool : String(call.tool);
    const entry = byName.get(this.options.restore?.name(given) ?? given);
    // no tool has a name this long: a name past it is not echoed back whole
    const name = entry || given.length <= MAX_NAME_ECHO ? given : `${given.slice(0, 64)}…`;
    const hooks = entry ? this.hookSteps(call, entry, run.signal) : undefined;
    let result: ToolResult;
    try {
      if (!entry) throw this.unknownTool(given, set);
      result = await this.execute(call, entry, run, hooks);
    } catch (error) {
      result = failed(call, name, asFailure(error), limitsFrom(this.options.config));
    }
    return hooks ? hooks.finish(result, limitsFrom(this.options.config)) : result;
  }

  /** The call's hooks (docs/hooks.md), or undefined when none is configured or registered. */
  private hookSteps(call: ToolCall, entry: HostTool, signal: AbortSignal | undefined): HookSteps | undefined {
    const hooks = this.options.hooks;
    if (!hooks || hooks.set.size === 0) return undefined;
    const { tool, namespace } = entry;
    const onHook = this.options.onHook;
    const called = new CallHooks(
      hooks.set,
      hooks.context,
      { ...(call.id !== undefined ? { id: call.id } : {}), tool: tool.name, namespace },
      signal,
      onHook ? (run) => onHook({ call, tool: tool.name, run }) : undefined,
    );
    return new HookSteps(called, tool, namespace);
  }

  private async execute(
    call: ToolCall,
    entry: HostTool,
    run: RunOptions,
    hooks: HookSteps | undefined,
  ): Promise<ToolResult> {
    const turnSignal = run.signal;
    const { tool, namespace } = entry;
    const config = this.options.config;
    const outright = deniedOutright({ name: tool.name, namespace }, this.options.policy.rules);
    if (outright) {
      const why = outright.rule.reason ? `: ${outright.rule.reason}` : "";
      const message = `${tool.name} is denied by ${outright.origin}${why}`;
      this.options.onDecision?.({
        call,
        tool: tool.name,
        decision: {
          effect: "deny",
          decidedBy: { origin: outright.origin, rule: outright.rule },
          subject: "the tool",
          message,
        },
      });
      throw new CallFailure(
        "permission_denied",
        `${message}. Do not retry it; use another tool or ask the user.`,
      );
    }

    const parsed = parseArgs(call.args, numberOr(config["tools.argsMaxBytes"], 1_048_576));
    if (!parsed.ok) throw new CallFailure(parsed.code, `${tool.name}: ${parsed.message}`);
    // the wire form of the catalog the call came from, back in the tool's own shape
    const restored = this.options.restore?.args(tool, parsed.value) ?? parsed.value;
    const checked = checkArguments(tool, restored);
    // PreToolUse hooks may refuse the call, replace its arguments, allow or ask (docs/hooks.md)
    const pre = hooks ? await hooks.before(checked) : { args: checked };
    const { args, approved, env } = await this.auth.authorise(call, tool, namespace, pre, hooks);
    hooks?.started(args);

    const limits = limitsFrom(config);
    const timeout = chooseTimeout(tool.name, tool.host.timeoutMs, config);
    const controller = new AbortController();
    const collector = new OutputCollector({
      inlineMaxBytes: limits.inlineMaxBytes,
      previewBytes: limits.previewBytes,
      spillMaxBytes: limits.spillMaxBytes,
      ...(tool.host.spill ? { openSpill: () => this.options.spill.create(tool.name) } : {}),
      onStop: () => controller.abort(new CallFailure("output_too_large", "output limit reached")),
    });
    const ctx: ToolContext = {
      signal: controller.signal,
      cwd: this.options.cwd,
      workspace: this.options.workspace,
      config,
      stream: collector,
      // the files a call reaches beyond its own arguments (what a search would show) are decided
      // by the same policy, as if the call had named each one
      paths: pathAccess({
        tool,
        namespace,
        args,
        policy: this.options.policy,
        env,
        ...(approved ? { approved } : {}),
        ...(this.options.ask || hooks
          ? {
              ask: (decision: Decision, request: PermissionRequest) =>
                this.auth.askPath({ call, tool: tool.name, decision, request }, args, hooks),
            }
          : {}),
      }),
      session: this.session,
      ...clientContext(this.options, run.client, tool.name, controller.signal),
    };
    if (this.options.log) ctx.log = this.options.log;

    let value: unknown;
    try {
      value = await runWithTimeout(() => tool.host.execute(args, ctx), controller, timeout.ms, turnSignal);
    } catch (error) {
      if (collector.bytes > 0 && stoppedForOutput(controller)) {
        // stopped at results.spillMaxBytes: what was written is the result, and says so
        const out = limitText(await collector.finish(), limits, this.readTool());
        return ok(call, tool.name, [{ type: "text", text: out.text }], true, out.spillPath);
      }
      // close the sink either way: an abandoned tool that keeps writing reaches nothing
      let partial: { text: string; spillPath?: string } | undefined;
      if (collector.bytes > 0) partial = limitText(await collector.finish(), limits, this.readTool());
      else await collector.abandon();
      throw describeRunError(error, tool.name, timeout, controller, turnSignal, partial);
    }

    const valid = tool.validateOutput(value);
    if (!valid.ok) {
      await collector.abandon();
      throw new CallFailure(
        "invalid_output",
        `${tool.name} returned a value that does not match its output schema:\n${formatIssues(valid.issues)}\n` +
          "This is a fault in the tool, not in your call: calling again the same way will fail the same way.",
      );
    }
    let rendered: RenderedOutput;
    try {
      rendered = tool.host.output.render(valid.value);
    } catch (error) {
      await collector.abandon();
      throw new CallFailure("tool_error", `${tool.name} could not render its result: ${messageOf(error)}`);
    }
    const result = await this.compose(call, tool, rendered, collector, limits);
    result.value = valid.value;
    return result;
  }

  private async compose(
    call: ToolCall,
    tool: AnyTool,
    rendered: RenderedOutput,
    collector: OutputCollector,
    limits: ResultLimits,
  ): Promise<ToolResult> {
    const page =
      typeof rendered === "string" ? { content: [{ type: "text" as const, text: rendered }] } : rendered;
    const textBlocks = page.content.filter((c) => c.type === "text");
    const texts = textBlocks.map((c) => c.text);
    const others = page.content.filter((c) => c.type !== "text");
    let content: ModelContent[];
    let truncated = page.truncated === true;
    let spillPath: string | undefined;
    if (collector.bytes > 0) {
      // streamed output is the body; the rendered value (a status line, an exit code) follows it
      const body = limitText(await collector.finish(), limits, this.readTool());
      const trailer = texts.join("\n");
      content = [{ type: "text", text: trailer === "" ? body.text : `${body.text}\n${trailer}` }, ...others];
      truncated ||= body.truncated;
      spillPath = body.spillPath;
    } else {
      await collector.finish();
      const joined = texts.join("\n");
      if (Buffer.byteLength(joined) <= limits.inlineMaxBytes) {
        // fits inline: each block stays as rendered, long lines cut
        const cutEach = texts.map((t) => limitText(inlineCollected(t), limits, this.readTool()));
        truncated ||= cutEach.some((c) => c.truncated);
        content = [
          ...cutEach.map((c, i) => textBlock(c.text, c.truncated ? undefined : textBlocks[i]!.resource)),
          ...others,
        ];
      } else {
        const whole = new OutputCollector({
          inlineMaxBytes: limits.inlineMaxBytes,
          previewBytes: limits.previewBytes,
          spillMaxBytes: Number.MAX_SAFE_INTEGER,
          ...(tool.host.spill ? { openSpill: () => this.options.spill.create(tool.name) } : {}),
        });
        await whole.write(joined);
        const out = limitText(await whole.finish(), limits, this.readTool());
        content = [{ type: "text", text: out.text }, ...others];
        truncated = true;
        spillPath = out.spillPath;
      }
    }
    const result = ok(call, tool.name, content, truncated, spillPath);
    if (page.nextOffset !== undefined) result.nextOffset = page.nextOffset;
    return result;
  }

  private unknownTool(name: string, set: HostToolSet): CallFailure {
    const search = this.options.searchTool;
    const names = set.tools
      .map((t) => t.tool.name)
      .filter((n) => n !== search)
      .sort();
    const searchHint =
      names.length < set.tools.length ? ` To find a tool by what it does, call ${search}.` : "";
    const available =
      ` Available tools: ${names.slice(0, 30).join(", ") || "none"}${names.length > 30 ? ", …" : ""}.` +
      searchHint;
    if (name.length > MAX_NAME_ECHO) {
      // no fuzzy match against megabytes of name, and no echo of them
      const shown = `${JSON.stringify(name.slice(0, 64))}… (a name of ${name.length} characters)`;
      return new CallFailure("unknown_tool", `there is no tool named ${shown}.${available}`);
    }
    const withheld = set.withheld?.find((w) => w.name === name);
    if (withheld) {
      return new CallFailure(
        withheld.code ?? "unknown_tool",
        `${name} is not available here: ${withheld.reason}.`,
      );
    }
    const down = set.unavailable?.find((u) => name.startsWith(u.prefix));
    if (down) return new CallFailure("unknown_tool", `${name} is not available right now: ${down.reason}`);
    const near = nearest(name, names);
    const hint = near.length > 0 ? ` Did you mean ${near.join(", ")}?` : available;
    return new CallFailure("unknown_tool", `there is no tool named ${JSON.stringify(name)}.${hint}`);
  }

  private readTool(): string {
    return this.options.readTool ?? "read";
  }
}

function inlineCollected(text: string) {
  const buf = Buffer.from(text, "utf8");
  return {
    totalBytes: buf.length,
    newlines: 0,
    endsWithNewline: false,
    inline: buf,
    head: buf,
    tail: buf,
    stopped: false,
    dropped: false,
  };
}

function numberOr(v: unknown, fallback: number): number {
  return typeof v === "number" ? v : fallback;
}
