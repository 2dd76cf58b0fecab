import { lazySchema, zod } from "../util/zod.js";
import { HOOK_DEFAULT_TIMEOUT_MS, HOOK_MAX_TIMEOUT_S } from "./hook-set.js";
import { MATCHER_MAX_CHARS, matcherProblem } from "./matcher.js";
import { HOOK_EVENTS, type HookEntry, type HookEventName, type HookMatcherGroup } from "./types.js";

/** The configuration key of each event's list: `{"hooks": {"PreToolUse": [...]}}` in a file. */
export function hookKey(event: HookEventName): `hooks.${HookEventName}` {
  return `hooks.${event}`;
}

/** Claude Code's other events: a harness's, not a tool layer's (named in the error for them). */
const HARNESS_EVENTS = [
  "UserPromptSubmit",
  "Stop",
  "SubagentStop",
  "SessionStart",
  "SessionEnd",
  "PreCompact",
  "Notification",
  "PermissionDenied",
];

/** What to tell a user whose file has `hooks.EVENT` for an event toolplane does not run. */
export function unknownHookEvent(key: string): string | undefined {
  if (!key.startsWith("hooks.")) return undefined;
  const event = key.slice("hooks.".length);
  const known = HOOK_EVENTS.join(", ");
  return HARNESS_EVENTS.includes(event)
    ? `is not an event toolplane runs: it runs the events around a tool call (${known}); ${event} belongs to the harness's own loop, so leave it in your harness's settings`
    : `is not a hook event; the events are ${known}`;
}

/** One event's list, as Claude Code's settings write it; only command hooks. */
export const hookGroupsSchema = lazySchema(() => {
  const z = zod();
  const command = z
    .object({
      type: z.string().refine((t) => t === "command", {
        message:
          'toolplane runs command hooks only ("type": "command"); prompt, agent, http and mcp_tool hooks are not supported',
      }),
      command: z.string().min(1, "give the command to run"),
      timeout: z
        .number()
        .positive()
        .max(HOOK_MAX_TIMEOUT_S, `at most ${HOOK_MAX_TIMEOUT_S} seconds`)
        .optional(),
    })
    .strict();
  const group = z
    .object({
      matcher: z
        .string()
        .max(MATCHER_MAX_CHARS)
        .superRefine((m, ctx) => {
          const problem = matcherProblem(m);
          if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
        })
        .optional(),
      hooks: z.array(command),
    })
    .strict();
  return z.array(group);
});

/** One layer's list for an event (what `ConfigValue.contributions` holds). */
export interface HookContribution {
  source: string;
  layer: string;
  value: unknown;
}

/** The configured hooks of an event, every layer's (highest first), each labelled with its file. */
export function configuredEntries(event: HookEventName, parts: readonly HookContribution[]): HookEntry[] {
  const out: HookEntry[] = [];
  for (const part of parts) {
    for (const group of part.value as HookMatcherGroup[]) {
      for (const hook of group.hooks) {
        out.push({
          event,
          matcher: group.matcher,
          name: hook.command,
          source: `${part.source} (${part.layer})`,
          timeoutMs: hook.timeout !== undefined ? Math.round(hook.timeout * 1000) : HOOK_DEFAULT_TIMEOUT_MS,
          run: { kind: "command", command: hook.command },
        });
      }
    }
  }
  return out;
}
