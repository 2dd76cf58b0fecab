import { loadServerSdk } from "../sdk.js";
import { SessionHub } from "./session.js";
import { Surface, type ToolServerDeps } from "./surface.js";

export { approvalMessage, ElicitingApprover, ruleFor } from "./approve.js";
export { mcpContent } from "./content.js";
export { declaredPrompts, declaredResources } from "./declared.js";
export { type HttpHandle, type HttpServeOptions, MCP_PATH, serveHttp } from "./http.js";
export { generateToken, tokenProblem } from "./http-auth.js";
export { PROMPT_ARGUMENT, type PromptList, type PromptSource } from "./prompts.js";
export {
  combineResources,
  type ResourceContents,
  type ResourceEntry,
  type ResourceSource,
  type ResourceTemplateEntry,
} from "./resources.js";
export { SessionHub } from "./session.js";
export { loadPromptText, skillPrompts } from "./skill-prompts.js";
export { SKILL_TEMPLATE, skillResources, skillUri } from "./skill-resources.js";
export { type StdioServeOptions, serveStdio } from "./stdio.js";
export type { McpSessionTools, McpToolEntry, RunCall, ToolServerDeps } from "./surface.js";

/** The hub every transport serves from; `prime` records the lists so later changes are detected. */
export async function createToolServer(deps: ToolServerDeps): Promise<SessionHub> {
  // the hub opens SDK servers synchronously (one per session): the SDK is loaded here, once
  await loadServerSdk();
  const hub = new SessionHub(new Surface(deps));
  await hub.prime();
  return hub;
}
