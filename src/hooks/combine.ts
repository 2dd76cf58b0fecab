// Many hooks, one outcome: what the answers of one event's hooks decide together (pure).
import { isDeepStrictEqual } from "node:util";
import type { HookAnswer, HookEntry, HookRun } from "./types.js";

/** The most of one hook's text (a reason, stderr, additionalContext) a model reads; Claude Code's cap. */
export const HOOK_TEXT_MAX_CHARS = 10_000;

/** `PreToolUse hook \`./check.sh\``: how a model and a person are told which hook it was. */
export function hookLabel(entry: HookEntry): string {
  const name = entry.name.length <= 120 ? entry.name : `${entry.name.slice(0, 120)}…`;
  return `${entry.event} hook ${name.includes("`") || /[\n\r]/.test(name) ? JSON.stringify(name) : `\`${name}\``}`;
}

/** A hook's text as the model reads it: at most HOOK_TEXT_MAX_CHARS, a cut said so. */
export function hookText(text: string): string {
  if (text.length <= HOOK_TEXT_MAX_CHARS) return text;
  return `${text.slice(0, HOOK_TEXT_MAX_CHARS)}… [cut: ${text.length - HOOK_TEXT_MAX_CHARS} more characters from the hook]`;
}

export interface Refusal {
  /** permission_denied: a hook denied or blocked; hook_error: a hook could not be read or broke the call. */
  code: "permission_denied" | "hook_error";
  message: string;
}

/** What the PreToolUse hooks of a call decide together. */
export interface PreVerdict {
  refuse?: Refusal;
  /** A hook asks for the call to be approved (it goes to PermissionRequest hooks, then the approver). */
  ask?: { entry: HookEntry; reason?: string };
  /** A hook allows it: it counts as an allow rule for the whole tool would, no more (see docs/hooks.md). */
  allow?: { entry: HookEntry };
  /** The arguments a hook gave instead (in the hook's form, as it wrote them). */
  updatedInput?: { value: Record<string, unknown>; entry: HookEntry };
  context: Array<{ entry: HookEntry; text: string }>;
  stop?: string;
  runs: HookRun[];
}

/**
 * Deny (or exit 2, or continue: false) beats ask beats allow, whatever the order. A hook that
 * could not answer (over its timeout, unreadable) refuses the call: a check that did not finish
 * does not let it through. Two hooks replacing the arguments differently refuse it too (neither
 * saw the other's). An allow from a hook that replaced the arguments does not carry to the new
 * ones: they are checked as if the model had sent them, and a PermissionRequest hook (which sees
 * them) or the approver answers what they ask.
 */
export function combinePre(answers: readonly HookAnswer[], original: unknown, tool: string): PreVerdict {
  const verdict: PreVerdict = { context: [], runs: answers.map(runOf) };
  const denials: string[] = [];
  const failures: string[] = [];
  const rewrites = answers.filter((a) => a.updatedInput !== undefined && !sameJson(a.updatedInput, original));
  for (const a of answers) {
    const label = hookLabel(a.entry);
    if (a.status === "failed") failures.push(`${label} did not answer: ${hookText(a.detail ?? "")}`);
    if (a.decision === "deny") {
      const verb = a.status === "blocked" ? "blocked" : "denied";
      denials.push(`${tool} was ${verb} by the ${label}: ${hookText(a.reason ?? "no reason given")}`);
    }
    if (a.additionalContext !== undefined)
      verdict.context.push({ entry: a.entry, text: a.additionalContext });
    if (a.stop !== undefined) verdict.stop ??= a.stop;
  }
  if (denials.length > 0) {
    verdict.refuse = {
      code: "permission_denied",
      message: `${denials.join("\n")}\nDo not retry this call as it is.`,
    };
    return ignoreRewrites(verdict, answers, "the call was refused");
  }
  if (failures.length > 0) {
    verdict.refuse = {
      code: "hook_error",
      message: `${failures.join("\n")}\n${tool} was not run: a check that could not finish does not let the call through.`,
    };
    return ignoreRewrites(verdict, answers, "the call was refused");
  }
  if (!allSame(rewrites)) {
    verdict.refuse = {
      code: "hook_error",
      message: `${rewrites.map((a) => hookLabel(a.entry)).join(" and ")} replaced the arguments differently; toolplane does not choose between them, so ${tool} was not run.`,
    };
    return ignoreRewrites(verdict, answers, "another hook replaced the arguments differently");
  }
  const rewrite = rewrites[0];
  if (rewrite) verdict.updatedInput = { value: rewrite.updatedInput!, entry: rewrite.entry };
  const asking = answers.find((a) => a.decision === "ask");
  if (asking) {
    verdict.ask = { entry: asking.entry };
    if (asking.reason !== undefined) verdict.ask.reason = asking.reason;
  } else if (rewrite === undefined) {
    const allowing = answers.find((a) => a.decision === "allow");
    if (allowing) verdict.allow = { entry: allowing.entry };
  }
  return verdict;
}

/** What the PermissionRequest hooks of an ask decide together: deny beats allow; none decides: the approver. */
export interface PermissionVerdict {
  deny?: Refusal;
  allow?: { entry: HookEntry; updatedInput?: Record<string, unknown> };
  stop?: string;
  runs: HookRun[];
}

export function combinePermission(
  answers: readonly HookAnswer[],
  original: unknown,
  tool: string,
): PermissionVerdict {
  const verdict: PermissionVerdict = { runs: answers.map(runOf) };
  for (const a of answers) if (a.stop !== undefined) verdict.stop ??= a.stop;
  const denials = answers.filter((a) => a.decision === "deny");
  if (denials.length > 0) {
    const lines = denials.map(
      (a) =>
        `${tool} was ${a.status === "blocked" ? "blocked" : "denied"} by the ${hookLabel(a.entry)}: ${hookText(a.reason ?? "no reason given")}`,
    );
    verdict.deny = {
      code: "permission_denied",
      message: `${lines.join("\n")}\nDo not retry this call as it is.`,
    };
    return verdict;
  }
  const allows = answers.filter((a) => a.decision === "allow");
  const rewrites = allows.filter((a) => a.updatedInput !== undefined && !sameJson(a.updatedInput, original));
  if (!allSame(rewrites)) {
    verdict.deny = {
      code: "hook_error",
      message: `${rewrites.map((a) => hookLabel(a.entry)).join(" and ")} replaced the arguments differently; toolplane does not choose between them, so ${tool} was not run.`,
    };
    return verdict;
  }
  const first = allows[0];
  if (first) {
    verdict.allow = { entry: (rewrites[0] ?? first).entry };
    if (rewrites[0]) verdict.allow.updatedInput = rewrites[0].updatedInput!;
  }
  return verdict;
}

/** What PostToolUse (or PostToolUseFailure) hooks add to a result: one labelled line each. */
export interface PostVerdict {
  notes: string[];
  stop?: string;
  runs: HookRun[];
}

export function combinePost(answers: readonly HookAnswer[]): PostVerdict {
  const verdict: PostVerdict = { notes: [], runs: answers.map(runOf) };
  for (const a of answers) {
    const label = hookLabel(a.entry);
    if (a.block)
      verdict.notes.push(`[${label} flags this result: ${hookText(a.reason ?? "no reason given")}]`);
    if (a.additionalContext !== undefined)
      verdict.notes.push(`[${label} adds: ${hookText(a.additionalContext)}]`);
    if (a.status === "failed") verdict.notes.push(`[${label} did not answer: ${hookText(a.detail ?? "")}]`);
    if (a.stop !== undefined) verdict.stop ??= a.stop;
  }
  return verdict;
}

/** The line a model reads for a PreToolUse hook's additionalContext. */
export function contextNote(entry: HookEntry, text: string): string {
  return `[${hookLabel(entry)} adds: ${hookText(text)}]`;
}

function ignoreRewrites(verdict: PreVerdict, answers: readonly HookAnswer[], why: string): PreVerdict {
  answers.forEach((a, i) => {
    if (a.updatedInput !== undefined) verdict.runs[i]!.ignored = why;
  });
  return verdict;
}

/** One answer as reported (result.hooks, the inspector's trace, onHook). */
export function runOf(a: HookAnswer): HookRun {
  const run: HookRun = {
    event: a.entry.event,
    hook: a.entry.name,
    source: a.entry.source,
    status: a.status,
    ms: a.ms,
  };
  const decision = a.block ? "block" : a.decision;
  if (decision !== undefined) run.decision = decision;
  if (a.reason !== undefined) run.reason = a.reason;
  if (a.updatedInput !== undefined) run.updatedInput = true;
  if (a.additionalContext !== undefined) run.additionalContext = a.additionalContext;
  if (a.systemMessage !== undefined) run.systemMessage = a.systemMessage;
  if (a.stop !== undefined) run.stop = a.stop;
  if (a.detail !== undefined) run.detail = a.detail;
  if (a.exitCode !== undefined) run.exitCode = a.exitCode;
  return { ...run, ms: a.ms };
}

/** Equal as JSON values, whatever the order of their keys. */
function sameJson(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}

function allSame(rewrites: readonly HookAnswer[]): boolean {
  return rewrites.every((a) => sameJson(a.updatedInput, rewrites[0]!.updatedInput));
}
