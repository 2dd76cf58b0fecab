export * from "./assemble/index.js";
export * from "./config/index.js";
export * from "./declare/index.js";
export * from "./defer/index.js";
export * from "./discover/index.js";
export type { DoctorCheck, DoctorContext, DoctorReport } from "./doctor/index.js";
export * from "./eval/index.js";
export * from "./execute/index.js";
export * from "./filter/index.js";
export {
  type FunctionHook,
  HOOK_EVENTS,
  type HookEventName,
  type HookFunction,
  type HookInput,
  type HookOutput,
  HookRegistry,
  type HookRun,
  type InProcessHooks,
} from "./hooks/index.js";
export * from "./invalidate/index.js";
export * from "./mcp/index.js";
export * from "./permissions/index.js";
export * from "./register/index.js";
export * from "./render/index.js";
export {
  loadSkill,
  renderSkillResult,
  SKILL_TOOL_DESCRIPTION,
  type SkillToolValue,
  skillTool,
} from "./tools/skill/tool.js";

/**
 * `toolplane doctor` on a live plane (see docs/doctor.md). Loaded on first use: the checks pull in
 * what `import "toolplane"` does not otherwise need.
 */
export async function runDoctor(
  ctx: import("./doctor/index.js").DoctorContext,
): Promise<import("./doctor/index.js").DoctorReport> {
  return (await import("./doctor/index.js")).runDoctor(ctx);
}
