// What a harness gives the execution host and gets from it (the host itself is host.ts).
import type { ClientHandlers } from "../declare/client.js";
import type { AnyTool, ToolSession } from "../declare/types.js";
import type { HookContext, HookRun, HookSet } from "../hooks/index.js";
import type { Decision, PermissionPolicy, PermissionRequest } from "../permissions/evaluate.js";
import type { SpillStore } from "./spill.js";
import type { ToolCall, ToolErrorCode } from "./types.js";

/** A tool the host may run, with the permission namespace it was registered under. */
export interface HostTool {
  tool: AnyTool;
  namespace: string;
}

/** The tools of the current scope, read once per turn. */
export interface HostToolSet {
  tools: readonly HostTool[];
  /** Names that exist but may not be called here, with why (shown to the model). */
  withheld?: ReadonlyArray<{ name: string; reason: string; code?: ToolErrorCode }>;
  /**
   * Name prefixes whose provider could not be read (an MCP server that did not start), with why:
   * a call of a name under one is told that, not "there is no tool named ...".
   */
  unavailable?: ReadonlyArray<{ prefix: string; reason: string }>;
}

export interface AskRequest {
  call: ToolCall;
  tool: string;
  /** The decision to approve; when several requests of the call ask, its message names them all. */
  decision: Decision;
  /** The first request that asks. */
  request: PermissionRequest;
  /** Every request of this call that asks (a shell command's commands and writes), approved together. */
  pending?: ReadonlyArray<{ request: PermissionRequest; decision: Decision }>;
}

/** One permission decision the host made for a call (what a UI shows as the call's trace). */
export interface DecisionEvent {
  call: ToolCall;
  tool: string;
  /** Absent when the tool itself is denied outright, before its arguments are read. */
  request?: PermissionRequest;
  decision: Decision;
}

/** One hook that ran on a call (what a UI shows in the call's trace, beside the decisions). */
export interface HookEvent {
  call: ToolCall;
  tool: string;
  run: HookRun;
}

/** Decides an `ask`: true runs the call. Asks are put one at a time, never two prompts at once. */
export type AskCallback = (ask: AskRequest) => boolean | Promise<boolean>;

/**
 * Maps a call made against a rendered catalog back to the tool's own name and argument shape
 * (a provider's renamed tool, OpenAI strict mode's nulls, Gemini's enum strings), before the
 * tool is looked up and its arguments validated. The plane's host restores every call this way.
 */
export interface CallRestorer {
  /** The tool's own name for the name the call used. */
  name(called: string): string;
  /** The parsed arguments in the tool's own shape (the same object when nothing changes). */
  args(tool: AnyTool, args: Record<string, unknown>): Record<string, unknown>;
}

/** onProgress, onLog, onElicit, onSample: how the harness answers what a tool asks (client-context.ts). */
export interface HostOptions extends ClientHandlers {
  tools: () => HostToolSet | Promise<HostToolSet>;
  /** Calls from a rendered catalog restored before lookup and validation; without one, taken as sent. */
  restore?: CallRestorer;
  /** Run-time configuration by dotted key (tools.*, results.*). */
  config: Readonly<Record<string, unknown>>;
  policy: PermissionPolicy;
  cwd: string;
  workspace: string;
  /** Directories inside the boundary besides the workspace (the spill store is added itself). */
  extraRoots?: readonly string[];
  spill: SpillStore;
  /** Without one, every `ask` is denied. */
  ask?: AskCallback;
  /** Sees each permission decision as it is made; it cannot change one. */
  onDecision?: (event: DecisionEvent) => void;
  log?: (line: string) => void;
  /**
   * The hooks in force and where they run (read per call, so a configuration change reaches the
   * next one); none when absent. See docs/hooks.md.
   */
  hooks?: { set: HookSet; context: HookContext };
  /** Sees each hook that ran on a call, as it ends; it cannot change anything. */
  onHook?: (event: HookEvent) => void;
  /** The tool the model uses to page through a spilled result. */
  readTool?: string;
  /**
   * The tool that finds tools by what they do (tool_search), when the session has one: an answer
   * to an unknown name points to it instead of listing it among the tools.
   */
  searchTool?: string;
  /** State the session's calls share (what read returned, the shell's directory); default: a fresh one. */
  session?: ToolSession;
}

export interface RunOptions {
  /** Aborts every call of the turn (the user pressed stop). */
  signal?: AbortSignal;
  /** This run's answers to what its tools ask, each winning over the host's (an MCP request's client). */
  client?: ClientHandlers;
}

/** Longest unknown tool name echoed back whole (tool names are at most 64 characters). */
