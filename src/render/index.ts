export { adapterFor, renderTool, supportedProviders } from "./adapters.js";
export { CUT_MARKER, cutText, waterFill } from "./budget.js";
export { restoreCall } from "./calls.js";
export type { BudgetSettings, RenderInput } from "./catalog.js";
export { CatalogRenderer } from "./incremental.js";
export { RenderMemo } from "./memo.js";
export { type McpToolFacts, mcpToolExtras } from "./providers/mcp.js";
export { restoreArgs } from "./restore-args.js";
export { toAnthropic } from "./schema/anthropic.js";
export { toGemini } from "./schema/gemini.js";
export { toMcp } from "./schema/mcp.js";
export { NAME_RULES, type NameRule, wireName } from "./schema/names.js";
export { toOpenAIStrict } from "./schema/openai-strict.js";
export type { ConvertedSchema, SchemaNote } from "./schema/types.js";
export {
  DEFERRED_HEADER,
  deferredLine,
  notListed,
  renderDeferred,
  renderSkillCatalog,
  renderSystem,
  SKILLS_HEADER,
  skillsNotListed,
} from "./system.js";
export * from "./types.js";
export { attachmentsText, renderCatalog } from "./volatile.js";
export type * from "./wire-types.js";
