import type { CommandHookExit } from "./command.js";
import type { HookAnswer, HookEntry, HookEventName, HookOutput } from "./types.js";

/** How one hook's run ended, before its answer is read. */
export type HookReply =
  | { kind: "exit"; exit: CommandHookExit }
  | { kind: "returned"; value: unknown }
  | { kind: "threw"; error: unknown }
  | { kind: "failed"; why: string };

/**
 * Reads one hook's reply per Claude Code's protocol. A command: exit 0 with JSON on stdout is an
 * answer (stdout that is not JSON is ignored, as Claude Code only shows it in its transcript);
 * exit 2 blocks with stderr as the reason; any other exit is a non-blocking error for the user. A
 * function: its return value is the answer, and a throw is a non-blocking error. An answer that
 * is not the protocol's (a field of the wrong type, another event's name) is an error too, and
 * nothing of it applies.
 */
export function answerOf(entry: HookEntry, reply: HookReply, ms: number): HookAnswer {
  const base = { entry, ms };
  switch (reply.kind) {
    case "failed":
      return { ...base, status: "failed", detail: reply.why };
    case "threw":
      return {
        ...base,
        status: "error",
        detail: `it threw: ${String((reply.error as Error)?.message ?? reply.error)}`,
      };
    case "returned":
      if (reply.value === undefined || reply.value === null) return { ...base, status: "ok" };
      return fromOutput(entry.event, reply.value, base);
    case "exit":
      return fromExit(entry.event, reply.exit, base);
  }
}

function fromExit(
  event: HookEventName,
  exit: CommandHookExit,
  base: { entry: HookEntry; ms: number },
): HookAnswer {
  const stderr = exit.stderr.trim();
  if (exit.failed !== undefined) {
    const detail = stderr === "" ? exit.failed : `${exit.failed}; stderr: ${stderr}`;
    return { ...base, status: "failed", detail, exitCode: exit.exitCode };
  }
  if (exit.exitCode === 2) {
    const reason = stderr === "" ? "(the hook exited 2 and wrote no reason to stderr)" : stderr;
    const blocked: HookAnswer = { ...base, status: "blocked", reason, exitCode: 2 };
    if (event === "PostToolUse" || event === "PostToolUseFailure") blocked.block = true;
    else blocked.decision = "deny";
    return blocked;
  }
  if (exit.exitCode !== 0) {
    const why = exit.exitCode === null ? "it was ended by a signal" : `it exited ${exit.exitCode}`;
    return {
      ...base,
      status: "error",
      detail: stderr === "" ? why : `${why}: ${stderr}`,
      exitCode: exit.exitCode,
    };
  }
  const stdout = exit.stdout.trim();
  if (stdout === "") return { ...base, status: "ok", exitCode: 0 };
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    return { ...base, status: "ok", exitCode: 0, detail: `stdout (not JSON, not read): ${clip(stdout)}` };
  }
  return { ...fromOutput(event, json, base), exitCode: 0 };
}

function fromOutput(
  event: HookEventName,
  value: unknown,
  base: { entry: HookEntry; ms: number },
): HookAnswer {
  const problem = outputProblem(event, value);
  if (problem !== undefined)
    return {
      ...base,
      status: "error",
      detail: `its answer is not a hook answer: ${problem}; nothing of it applies`,
    };
  const out = value as HookOutput;
  const hso = out.hookSpecificOutput ?? {};
  const answer: HookAnswer = { ...base, status: "ok" };
  if (out.systemMessage !== undefined) answer.systemMessage = out.systemMessage;
  if (out.continue === false) answer.stop = out.stopReason ?? "a hook answered continue: false";
  if (event === "PreToolUse") {
    const decision =
      hso.permissionDecision ??
      (out.decision === "approve" ? "allow" : out.decision === "block" ? "deny" : undefined);
    if (decision !== undefined) answer.decision = decision;
    const reason = hso.permissionDecisionReason ?? out.reason;
    if (reason !== undefined) answer.reason = reason;
    if (hso.updatedInput !== undefined) answer.updatedInput = hso.updatedInput;
    if (hso.additionalContext !== undefined) answer.additionalContext = hso.additionalContext;
  } else if (event === "PermissionRequest") {
    const d = hso.decision;
    if (d !== undefined) {
      answer.decision = d.behavior;
      if (d.message !== undefined) answer.reason = d.message;
      if (d.behavior === "allow" && d.updatedInput !== undefined) answer.updatedInput = d.updatedInput;
      if (d.behavior === "deny" && d.interrupt === true)
        answer.stop = d.message ?? "a PermissionRequest hook interrupted";
    }
  } else {
    if (out.decision === "block") {
      answer.block = true;
      answer.reason = out.reason ?? "(the hook gave no reason)";
    }
    if (hso.additionalContext !== undefined) answer.additionalContext = hso.additionalContext;
  }
  // continue: false stops whatever the hook decided; before the call it also refuses it
  if (answer.stop !== undefined && (event === "PreToolUse" || event === "PermissionRequest")) {
    answer.decision = "deny";
    answer.reason ??= answer.stop;
  }
  return answer;
}

const DECISIONS: Record<string, readonly string[]> = {
  permissionDecision: ["allow", "deny", "ask"],
  behavior: ["allow", "deny"],
  decision: ["approve", "block"],
};

/** What makes a value not a hook answer for this event, or undefined. */
function outputProblem(event: HookEventName, value: unknown): string | undefined {
  if (!isObject(value)) return `expected a JSON object, got ${kindOf(value)}`;
  const types: Array<[string, unknown, string]> = [
    ["continue", value.continue, "boolean"],
    ["stopReason", value.stopReason, "string"],
    ["suppressOutput", value.suppressOutput, "boolean"],
    ["systemMessage", value.systemMessage, "string"],
    ["reason", value.reason, "string"],
  ];
  for (const [name, v, type] of types)
    if (v !== undefined && typeof v !== type) return `${name} is not a ${type}`;
  if (value.decision !== undefined && !DECISIONS.decision!.includes(value.decision as string))
    return `decision is ${JSON.stringify(value.decision)}, not "approve" or "block"`;
  const hso = value.hookSpecificOutput;
  if (hso === undefined) return undefined;
  if (!isObject(hso)) return "hookSpecificOutput is not an object";
  if (hso.hookEventName !== undefined && hso.hookEventName !== event)
    return `hookSpecificOutput.hookEventName is ${JSON.stringify(hso.hookEventName)}, but the event is ${event}`;
  if (
    hso.permissionDecision !== undefined &&
    !DECISIONS.permissionDecision!.includes(hso.permissionDecision as string)
  )
    return `permissionDecision is ${JSON.stringify(hso.permissionDecision)}, not "allow", "deny" or "ask"`;
  for (const name of ["permissionDecisionReason", "additionalContext"])
    if (hso[name] !== undefined && typeof hso[name] !== "string") return `${name} is not a string`;
  if (hso.updatedInput !== undefined && !isObject(hso.updatedInput)) return "updatedInput is not an object";
  const d = hso.decision;
  if (d === undefined) return undefined;
  if (!isObject(d)) return "hookSpecificOutput.decision is not an object";
  if (!DECISIONS.behavior!.includes(d.behavior as string))
    return `decision.behavior is ${JSON.stringify(d.behavior)}, not "allow" or "deny"`;
  if (d.updatedInput !== undefined && !isObject(d.updatedInput))
    return "decision.updatedInput is not an object";
  if (d.message !== undefined && typeof d.message !== "string") return "decision.message is not a string";
  if (d.interrupt !== undefined && typeof d.interrupt !== "boolean")
    return "decision.interrupt is not a boolean";
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function kindOf(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "an array" : `a ${typeof v}`;
}

function clip(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 200)}…`;
}
