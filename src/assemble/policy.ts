import { type Config, perConfig } from "../config/index.js";
import { MCP_ACTIONS, MCP_DEFAULT_RULES } from "../mcp/client/tool.js";
import { MCP_NAME_PREFIX, qualifyToolNames, sanitise, serverKey } from "../mcp/names.js";
import { type PermissionPolicy, policyFromConfig, type SourcedRule } from "../permissions/index.js";
import { protectedPathsOf } from "../permissions/protected.js";
import { hookFilesOf } from "./hooks.js";

/**
 * Running a command and writing a file ask unless a rule allows them (what Claude Code and Codex
 * users expect); permissions.defaultEffect keeps deciding everything else (reads).
 */
export const CODING_ACTION_DEFAULTS = { command: "ask", write: "ask" } as const;

/** sessionPolicy, made once per configuration (a host asks for it on every call). */
export const policyOf = perConfig((config) => sessionPolicy(config));

/**
 * The permission policy of a configuration (pure data; see evaluatePermission), with the
 * session's defaults: `command` and `write` ask when no rule covers them, and destructive MCP
 * tools ask, unless any rule of the user's is about that action, which then replaces the default.
 * A rule from a project that is not trusted never replaces a default (it may only tighten: see
 * src/config/untrusted.ts, which also drops its allow rules, so it cannot allow a command).
 */
export function sessionPolicy(config: Config): PermissionPolicy {
  const policy = {
    ...policyFromConfig(config.values, config.projectRoot),
    actionDefaults: CODING_ACTION_DEFAULTS,
    protectedPaths: protectedPathsOf({
      projectRoot: config.projectRoot,
      home: config.home,
      modules: (config.get("tools.modules") as Array<string | { path: string }> | undefined) ?? [],
      hookFiles: hookFilesOf(config),
    }),
  };
  const rules = policy.rules.map(withMcpAliases);
  const replacesDefault = (r: SourcedRule) => config.trust.trusted || r.layer !== "project";
  const userDecides = rules.some((r) => r.rule.action === MCP_ACTIONS.destructive && replacesDefault(r));
  if (userDecides) return { ...policy, rules };
  const defaults = MCP_DEFAULT_RULES.map((rule) => ({
    rule: { ...rule },
    origin: "the built-in default (destructive MCP tools ask)",
  }));
  return { ...policy, rules: [...rules, ...defaults] };
}

const GLOB_CHARS = /[*?]/;

/**
 * A rule may name an MCP tool by the server's own tool name ("mcp:github/create_issue", or
 * "namespace": "mcp:github" with "tool": "create_issue"); the model, and so the permission
 * request, sees the qualified name "mcp__github__create_issue". The rule gets that form as an
 * alias, computed with the client's own naming (src/mcp/names.ts), so it matches the same tool.
 */
export function withMcpAliases(sourced: SourcedRule): SourcedRule {
  const tool = sourced.rule.tool;
  if (tool === undefined) return sourced;
  const slash = tool.lastIndexOf("/");
  const ns = slash === -1 ? sourced.rule.namespace : tool.slice(0, slash);
  const name = slash === -1 ? tool : tool.slice(slash + 1);
  if (ns === undefined || !ns.startsWith("mcp:") || name.startsWith(MCP_NAME_PREFIX)) return sourced;
  const qualified = qualifiedGlobs(ns.slice("mcp:".length), name, sourced.rule.effect !== "allow");
  const aliases = qualified.map((q) => (slash === -1 ? q : `${ns}/${q}`));
  return { ...sourced, toolAliases: [...(sourced.toolAliases ?? []), ...aliases] };
}

/** The qualified name(s) a server's tool name (or glob) takes; `failClosed` adds the hashed look-alike form. */
function qualifiedGlobs(server: string, name: string, failClosed: boolean): string[] {
  const serverGlob = GLOB_CHARS.test(server);
  const key = serverGlob
    ? server.replace(/[^A-Za-z0-9_\-*?]/g, "_") + (/[^A-Za-z0-9_\-*?]/.test(server) ? "_????" : "")
    : serverKey(server);
  if (!serverGlob && !GLOB_CHARS.test(name)) {
    const exact = qualifyToolNames(server, [name]).get(name)!;
    // two raw names that sanitise alike: the one that needed sanitising carries a hash
    return failClosed && sanitise(name) !== name ? [exact, `${exact}_??????`] : [exact];
  }
  return [`${MCP_NAME_PREFIX}${key}__${name.replace(/[^A-Za-z0-9_\-*?]/g, "_")}`];
}
