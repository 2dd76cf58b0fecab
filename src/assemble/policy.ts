import type { Config } from "../config/index.js";
import { MCP_ACTIONS, MCP_DEFAULT_RULES } from "../mcp/index.js";
import { type PermissionPolicy, policyFromConfig } from "../permissions/index.js";

/**
 * The permission policy of a configuration (pure data; see evaluatePermission), with the
 * session's defaults: destructive MCP tools ask, unless any rule of the user's is about that
 * action, which then replaces the default.
 */
export function sessionPolicy(config: Config): PermissionPolicy {
  const policy = policyFromConfig(config.values, config.projectRoot);
  const userDecides = policy.rules.some((r) => r.rule.action === MCP_ACTIONS.destructive);
  if (userDecides) return policy;
  const defaults = MCP_DEFAULT_RULES.map((rule) => ({
    rule: { ...rule },
    origin: "the built-in default (destructive MCP tools ask)",
  }));
  return { ...policy, rules: [...policy.rules, ...defaults] };
}
