export type {
  ElicitationAnswer,
  ElicitationField,
  ElicitationHandler,
  ElicitationRequest,
  ElicitationValue,
} from "./client/elicitation.js";
export { type McpClients, type RegisterMcpOptions, registerMcpServers } from "./client/index.js";
export { NeedsLoginError } from "./client/oauth/errors.js";
export type { McpLoginHook } from "./client/oauth/session.js";
export { type Backoff, DEFAULT_BACKOFF, McpProvider, type McpProviderOptions } from "./client/provider.js";
export { MCP_ACTIONS, MCP_DEFAULT_RULES, type McpToolOutput } from "./client/tool.js";
export type { McpHttpConfig, McpOAuthConfig, McpServerConfig, McpStdioConfig } from "./config.js";
export { qualifyToolNames, sanitise } from "./names.js";
export {
  createToolServer,
  type HttpHandle,
  type McpToolEntry,
  type PromptSource,
  type RunCall,
  SessionHub,
  serveHttp,
  serveStdio,
  type ToolServerDeps,
} from "./server/index.js";
