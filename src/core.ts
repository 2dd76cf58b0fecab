// The one file of toolplane's code the package ships (scripts/bundle.mjs builds it as CommonJS,
// dist/src/chunks/core-HASH.cjs). The library entry, the adapters and the CLI all load this one
// module, so a tool module that imports `toolplane` and the CLI that loads it share one copy (one
// registry of declared tools, one set of module-level caches). CommonJS because Node 20 can give
// a script V8's code cache and cannot give an ES module one: the CLI compiles this file with the
// cache it kept from its last run (cli/code-cache.ts; docs/startup.md). What only some callers
// need is behind a require() esbuild bundles as a lazily run module: the CLI runs only what its
// command imports (not the whole library), and loading the library runs no CLI code and loads
// neither commander nor the adapters' SDKs.

// biome-ignore lint/suspicious/noExplicitAny: esbuild resolves and bundles these calls; tsc only needs their types
declare const require: (id: string) => any;

/** The library (`toolplane`). */
export const library = (): typeof import("./index.js") => require("./index.js");
/** The CLI's entry (cli/run.ts), run on first call. */
export const cli = (): typeof import("./cli/run.js") => require("./cli/run.js");
/** `toolplane/ai-sdk` (it imports `ai`). */
export const aiSdk = (): typeof import("./adapters/ai-sdk.js") => require("./adapters/ai-sdk.js");
/** `toolplane/openai-agents` (it imports `@openai/agents`). */
export const openAiAgents = (): typeof import("./adapters/openai-agents.js") =>
  require("./adapters/openai-agents.js");
/** `toolplane/langchain` (it imports `langchain`). */
export const langchain = (): typeof import("./adapters/langchain.js") => require("./adapters/langchain.js");
/** `toolplane/claude-agent-sdk` (it imports `@anthropic-ai/claude-agent-sdk` when a server is made). */
export const claudeAgentSdk = (): typeof import("./adapters/claude-agent-sdk.js") =>
  require("./adapters/claude-agent-sdk.js");
