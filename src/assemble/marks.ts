import { type Config, perConfig } from "../config/index.js";
import type { DeferMark } from "../defer/index.js";
import { MCP_PROVIDER_PREFIX, providerName } from "../mcp/config.js";
import type { VisibleTool } from "./visibility.js";

/**
 * The registry provider of the built-in tools (`builtinProvider` in src/tools: read, grep, glob,
 * skill, and any later built-in). Its tools are marked `never` unless something marks them:
 * a harness expects its own tools in the list, and only tools from MCP servers and modules are
 * left to the trigger.
 */
export const BUILTIN_PROVIDER = "builtin";

/** Where the deferral marks come from, read once from the assembly keys. */
export interface MarkRules {
  /** `defer.tools`: by tool name. */
  tools: Readonly<Record<string, DeferMark>>;
  /** `mcp.servers.<name>.defer`, by registry provider name (`mcp:<name>`). */
  providers: ReadonlyMap<string, { mark: DeferMark; by: string }>;
}

/** markRulesFrom, made once per configuration (a set() makes a new one). */
export const markRulesOf = perConfig((config) => markRulesFrom(config));

export function markRulesFrom(config: Pick<Config, "get">): MarkRules {
  const servers = config.get("mcp.servers") as Record<string, { defer?: DeferMark }>;
  const providers = new Map<string, { mark: DeferMark; by: string }>();
  for (const [name, server] of Object.entries(servers))
    if (server.defer)
      providers.set(providerName(name), { mark: server.defer, by: `mcp.servers.${name}.defer` });
  return { tools: config.get("defer.tools") as Record<string, DeferMark>, providers };
}

/**
 * A tool's deferral mark and who set it, nearest first: `defer.tools`, the tool's declaration, its
 * MCP server's config, the built-in default (never). Undefined: `auto`, the trigger decides.
 */
export function markOf(v: VisibleTool, rules: MarkRules): { mark: DeferMark; markedBy: string } | undefined {
  const name = v.tool.name;
  if (Object.hasOwn(rules.tools, name)) return { mark: rules.tools[name]!, markedBy: "defer.tools" };
  if (v.tool.host.defer) return { mark: v.tool.host.defer, markedBy: "the tool's declaration" };
  const server = rules.providers.get(v.provider);
  if (server) return { mark: server.mark, markedBy: server.by };
  if (v.provider === BUILTIN_PROVIDER) return { mark: "never", markedBy: "built-in tool" };
  // a server the user connects brings tools nobody counted: listed by name until searched
  // (allowlist), whatever the threshold says; mcp.servers.NAME.defer "auto" or "never" changes it
  if (v.provider.startsWith(MCP_PROVIDER_PREFIX)) return { mark: "always", markedBy: "MCP server tool" };
  return undefined;
}
