import type { Config } from "../config/index.js";
import { MCP_ACTIONS, MCP_DEFAULT_RULES } from "../mcp/index.js";
import { type PermissionPolicy, policyFromConfig } from "../permissions/index.js";

/**
 * Running a command and writing a file ask unless a rule allows them (what Claude Code and Codex
 * users expect); permissions.defaultEffect keeps deciding everything else (reads).
 */
export const CODING_ACTION_DEFAULTS = { command: "ask", write: "ask" } as const;

/**
 * The permission policy of a configuration (pure data; see evaluatePermission), with the
 * session's defaults: `command` and `write` ask when no rule covers them, and destructive MCP
 * tools ask, unless any rule of the user's is about that action, which then replaces the default.
 */
export function sessionPolicy(config: Config): PermissionPolicy {
  const policy = {
    ...policyFromConfig(config.values, config.projectRoot),
    actionDefaults: CODING_ACTION_DEFAULTS,
  };
  const userDecides = policy.rules.some((r) => r.rule.action === MCP_ACTIONS.destructive);
  if (userDecides) return policy;
  const defaults = MCP_DEFAULT_RULES.map((rule) => ({
    rule: { ...rule },
    origin: "the built-in default (destructive MCP tools ask)",
  }));
  return { ...policy, rules: [...policy.rules, ...defaults] };
}
