// The shapes of hooks: Claude Code's settings format and protocol (docs/hooks.md), and the
// in-process form a harness registers functions with.

/** The events toolplane runs: the four around a tool call. */
export const HOOK_EVENTS = ["PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure"] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** One command hook, as Claude Code's settings write it (`timeout` in seconds). */
export interface CommandHookConfig {
  type: "command";
  command: string;
  timeout?: number;
}

/** One entry of an event's list: a matcher over tool names and the hooks it runs. */
export interface HookMatcherGroup {
  matcher?: string;
  hooks: CommandHookConfig[];
}

/** The JSON a hook reads on stdin (a function hook gets the same object). */
export interface HookInput {
  session_id: string;
  cwd: string;
  /** Always "default": toolplane has no permission modes (its rules decide). */
  permission_mode: "default";
  hook_event_name: HookEventName;
  /** Claude Code's name for a built-in tool of the same job (`Bash`, `Read`, ...), else the tool's own. */
  tool_name: string;
  /** The arguments; for the built-ins in Claude Code's field names (`file_path`, absolute). */
  tool_input: Record<string, unknown>;
  tool_use_id: string;
  /** The tool's name in toolplane (`bash`, `mcp__github__create_issue`). */
  toolplane_tool_name: string;
  /** PostToolUse: the tool's canonical value (MCP's structuredContent). */
  tool_response?: unknown;
  /** PostToolUse: the text the model reads (after the result limits). */
  tool_output?: string;
  /** PostToolUseFailure: what the model is told. */
  error?: string;
  /** PostToolUseFailure: toolplane's error code (`timeout`, `tool_error`, ...). */
  error_code?: string;
  /** PostToolUseFailure: the turn was cancelled. */
  is_interrupt?: boolean;
  /** PermissionRequest: Claude Code's suggested rules; toolplane suggests none. */
  permission_suggestions?: unknown[];
  /** PermissionRequest: why the call asks, one line. */
  decision_reason?: string;
  /** PermissionRequest: each part of the call that asks (a command, a write, a path). */
  toolplane_asks?: Array<{ action?: string; subject: string; reason: string }>;
}

/** What a hook may answer: JSON on stdout (exit 0), or a function hook's return value. */
export interface HookOutput {
  /** false: the harness should stop after this call (the result carries `stopReason`). */
  continue?: boolean;
  stopReason?: string;
  suppressOutput?: boolean;
  /** Shown to the user (logged), never to the model. */
  systemMessage?: string;
  /** The older PreToolUse form ("approve" / "block") and PostToolUse's "block". */
  decision?: "approve" | "block";
  reason?: string;
  hookSpecificOutput?: {
    hookEventName?: string;
    permissionDecision?: "allow" | "deny" | "ask";
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
    additionalContext?: string;
    /** PermissionRequest's answer. */
    decision?: {
      behavior: "allow" | "deny";
      updatedInput?: Record<string, unknown>;
      message?: string;
      interrupt?: boolean;
    };
  };
}

/** An in-process hook: the same input and answer as a command hook, as a function. */
export type HookFunction = (
  input: HookInput,
  context: { signal: AbortSignal },
  // biome-ignore lint/suspicious/noConfusingVoidType: a function that returns nothing (async or not) decides nothing
) => HookOutput | undefined | void | Promise<HookOutput | undefined | void>;

/** A function hook with a matcher (same semantics as the settings'), a timeout in seconds, a name for traces. */
export interface FunctionHook {
  matcher?: string;
  hook: HookFunction;
  timeout?: number;
  name?: string;
}

/** In-process hooks by event (`plane.host({ hooks })`, `plane.hooks.on(...)`). */
export type InProcessHooks = Partial<Record<HookEventName, ReadonlyArray<HookFunction | FunctionHook>>>;

/** One hook ready to run: a configured command or a registered function. */
export interface HookEntry {
  event: HookEventName;
  matcher: string | undefined;
  /** How traces and messages name it: the command, or the function's name. */
  name: string;
  /** Where it came from: `/home/u/.config/toolplane/config.json (user)`, `in-process`. */
  source: string;
  timeoutMs: number;
  run: { kind: "command"; command: string } | { kind: "function"; fn: HookFunction };
}

/**
 * How one hook's run ended. ok: exit 0 (or a function returned); blocked: exit 2; error: another
 * exit, a throw or an answer that is not the protocol's (non-blocking, as in Claude Code); failed:
 * no answer could be read (over its timeout, output over the cap, could not start).
 */
export type HookStatus = "ok" | "blocked" | "error" | "failed";

/** What one hook said, as its answer and its report both carry it. */
interface HookSaid {
  status: HookStatus;
  /** The reason that goes with the decision or block (stderr for exit 2). */
  reason?: string;
  additionalContext?: string;
  /** For the user, never the model. */
  systemMessage?: string;
  /** `continue: false` (or PermissionRequest's interrupt): why the harness should stop. */
  stop?: string;
  /** For people: stderr of an error, why it failed, stdout that was not JSON. */
  detail?: string;
  exitCode?: number | null;
  ms: number;
}

/** One hook's answer, read per the protocol of its event. */
export interface HookAnswer extends HookSaid {
  entry: HookEntry;
  /** PreToolUse: permissionDecision (or the older approve/block); PermissionRequest: behavior. */
  decision?: "allow" | "deny" | "ask";
  /** PostToolUse(Failure): decision "block" or exit 2. */
  block?: boolean;
  updatedInput?: Record<string, unknown>;
}

/** One hook that ran on a call, as the result, the inspector and `onHook` report it. */
export interface HookRun extends HookSaid {
  event: HookEventName;
  hook: string;
  source: string;
  decision?: "allow" | "deny" | "ask" | "block";
  /** It replaced the arguments. */
  updatedInput?: boolean;
  /** The replacement was not used (another hook rewrote differently, or a deny won). */
  ignored?: string;
}
