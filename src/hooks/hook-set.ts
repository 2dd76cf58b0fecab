import { answerOf, type HookReply } from "./answer.js";
import { runCommandHook } from "./command.js";
import { matcherProblem, matches } from "./matcher.js";
import type {
  FunctionHook,
  HookAnswer,
  HookEntry,
  HookEventName,
  HookFunction,
  HookInput,
  InProcessHooks,
} from "./types.js";

/** A hook's timeout when it names none (Claude Code's documented default). */
export const HOOK_DEFAULT_TIMEOUT_MS = 60_000;

/** The longest timeout a timer can hold, in seconds (setTimeout fires at once past 2^31-1 ms). */
export const HOOK_MAX_TIMEOUT_S = Math.floor(2_147_483_647 / 1000);

/** Where and how hooks run for one host: the same for every call of it. */
export interface HookContext {
  cwd: string;
  /** The project root: $CLAUDE_PROJECT_DIR and $TOOLPLANE_PROJECT_DIR. */
  projectDir: string;
  sessionId: string;
  /** What a command hook's environment is built from (environment.ts). */
  env: NodeJS.ProcessEnv;
  /** Lines for the user: a hook's non-blocking error, its systemMessage. */
  log?: (line: string) => void;
}

/**
 * The hooks in force for a host: configured commands and in-process functions, by event. Hooks
 * of one event that match a call run in parallel, each under its own timeout; an identical
 * command matched twice runs once (as in Claude Code).
 */
export class HookSet {
  private readonly byEvent = new Map<HookEventName, HookEntry[]>();

  constructor(entries: readonly HookEntry[]) {
    for (const e of entries) {
      const list = this.byEvent.get(e.event) ?? [];
      list.push(e);
      this.byEvent.set(e.event, list);
    }
  }

  get size(): number {
    let n = 0;
    for (const list of this.byEvent.values()) n += list.length;
    return n;
  }

  /** The hooks of `event` whose matcher selects the tool, each command once. */
  matching(event: HookEventName, tool: string, namespace: string): HookEntry[] {
    const list = this.byEvent.get(event);
    if (list === undefined) return [];
    const seen = new Set<unknown>();
    const out: HookEntry[] = [];
    for (const e of list) {
      if (!matches(e.matcher, tool, namespace)) continue;
      const key = e.run.kind === "command" ? `command:${e.run.command}` : e.run.fn;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(e);
    }
    return out;
  }
}

/** Runs the hooks in parallel; the answers come back in the hooks' order. Never rejects. */
export function runHooks(
  entries: readonly HookEntry[],
  input: HookInput,
  ctx: HookContext,
  signal?: AbortSignal,
): Promise<HookAnswer[]> {
  const json = JSON.stringify(input);
  return Promise.all(entries.map((entry) => runOne(entry, json, ctx, signal)));
}

async function runOne(
  entry: HookEntry,
  json: string,
  ctx: HookContext,
  signal: AbortSignal | undefined,
): Promise<HookAnswer> {
  const started = performance.now();
  let reply: HookReply;
  if (entry.run.kind === "command") {
    const exit = await runCommandHook({
      command: entry.run.command,
      input: json,
      cwd: ctx.cwd,
      env: ctx.env,
      timeoutMs: entry.timeoutMs,
      ...(signal ? { signal } : {}),
    });
    reply = { kind: "exit", exit };
  } else {
    // a copy: the function cannot reach the host's own arguments object
    reply = await runFunction(entry.run.fn, JSON.parse(json) as HookInput, entry.timeoutMs, signal);
  }
  return answerOf(entry, reply, Math.round(performance.now() - started));
}

/**
 * A function hook under the same rules as a command: its own timeout (a function that never
 * settles is abandoned, its signal aborted), the turn's cancel, a throw as a non-blocking error.
 * Its answer is copied through JSON, so a getter or a cycle in it is an error, not a crash.
 */
async function runFunction(
  fn: HookFunction,
  input: HookInput,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<HookReply> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const cut = new Promise<HookReply>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({
        kind: "failed",
        why: `did not finish within ${timeoutMs / 1000} s (its timeout); it was abandoned`,
      });
    }, timeoutMs);
    onAbort = () => {
      controller.abort();
      resolve({ kind: "failed", why: "the turn was cancelled" });
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
  const ran = Promise.resolve()
    .then(() => fn(input, { signal: controller.signal }))
    .then(
      (value): HookReply => ({
        kind: "returned",
        value: value === undefined ? undefined : JSON.parse(JSON.stringify(value)),
      }),
      (error: unknown): HookReply => ({ kind: "threw", error }),
    )
    .catch((error: unknown): HookReply => ({ kind: "threw", error }));
  try {
    return await Promise.race([ran, cut]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}

/** In-process hooks as entries (`source` says where they were given). */
export function functionEntries(hooks: InProcessHooks | undefined, source: string): HookEntry[] {
  if (!hooks) return [];
  const out: HookEntry[] = [];
  for (const [event, list] of Object.entries(hooks) as Array<
    [HookEventName, ReadonlyArray<HookFunction | FunctionHook>]
  >) {
    for (const item of list ?? []) out.push(functionEntry(event, item, source));
  }
  return out;
}

export function functionEntry(
  event: HookEventName,
  item: HookFunction | FunctionHook,
  source: string,
): HookEntry {
  const spec: FunctionHook = typeof item === "function" ? { hook: item } : item;
  if (typeof spec.hook !== "function")
    throw new TypeError(`a ${event} hook must be a function or {hook: function}`);
  if (spec.timeout !== undefined && !(spec.timeout > 0 && spec.timeout <= HOOK_MAX_TIMEOUT_S))
    throw new RangeError(
      `a ${event} hook's timeout is in seconds, above 0 and at most ${HOOK_MAX_TIMEOUT_S}`,
    );
  const problem = spec.matcher === undefined ? undefined : matcherProblem(spec.matcher);
  if (problem !== undefined) throw new SyntaxError(`a ${event} hook's ${problem}`);
  // `{hook: () => ...}` names the arrow "hook", which says nothing: such a one is anonymous here
  const named = spec.hook.name !== "" && !(typeof item !== "function" && spec.hook.name === "hook");
  return {
    event,
    matcher: spec.matcher,
    name: spec.name ?? (named ? spec.hook.name : "(anonymous function)"),
    source,
    timeoutMs: spec.timeout !== undefined ? spec.timeout * 1000 : HOOK_DEFAULT_TIMEOUT_MS,
    run: { kind: "function", fn: spec.hook },
  };
}
