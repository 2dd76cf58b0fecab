export { explainIssues, MAX_ARGS_DEPTH, parseArgs, unknownFields } from "./args.js";
export { type Collected, OutputCollector } from "./collector.js";
export { OutputTooLargeError, readLimited } from "./errors.js";
export {
  type AskCallback,
  type AskRequest,
  type CallRestorer,
  type DecisionEvent,
  ExecutionHost,
  type HookEvent,
  type HostOptions,
  type HostTool,
  type HostToolSet,
  type RunOptions,
} from "./host.js";
export { limitsFrom, limitText, type ResultLimits } from "./limits.js";
export { buildPreview, cutLines } from "./preview.js";
export { chooseTimeout, planGroups } from "./schedule.js";
export { newToolSession, SESSION_FILES_MAX } from "./session.js";
export {
  exportToolSession,
  importToolSession,
  readSession,
  type SavedSession,
  SESSION_ID,
  sessionPath,
  sweepSessions,
  writeSession,
} from "./session-store.js";
export { defaultSpillBase, SpillStore } from "./spill.js";
export type { ToolCall, ToolErrorCode, ToolResult } from "./types.js";
