export { CallHooks, type HookedCall } from "./call-hooks.js";
export { hookToolInput, hookToolName, toolArgsFromHook } from "./claude-input.js";
export {
  contextNote,
  HOOK_TEXT_MAX_CHARS,
  hookLabel,
  type PermissionVerdict,
  type PostVerdict,
  type PreVerdict,
  type Refusal,
} from "./combine.js";
export { HOOK_STDERR_MAX_BYTES, HOOK_STDOUT_MAX_BYTES } from "./command.js";
export { type CommandTarget, commandFiles, commandTarget } from "./command-words.js";
export {
  configuredEntries,
  type HookContribution,
  hookGroupsSchema,
  hookKey,
  unknownHookEvent,
} from "./config.js";
export { hookEnvironment } from "./environment.js";
export {
  functionEntries,
  functionEntry,
  HOOK_DEFAULT_TIMEOUT_MS,
  HOOK_MAX_TIMEOUT_S,
  type HookContext,
  HookSet,
  runHooks,
} from "./hook-set.js";
export { CLAUDE_CODE_NAMES, matcherProblem, matches } from "./matcher.js";
export { HookRegistry } from "./registry.js";
export * from "./types.js";
