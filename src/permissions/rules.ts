import { z } from "zod";

export const EFFECTS = ["allow", "ask", "deny"] as const;
export type Effect = (typeof EFFECTS)[number];

/**
 * One permission rule. Every condition present must match for the rule to apply; a rule with
 * no condition matches every call. Among the rules that apply, deny beats ask beats allow.
 */
const paramCondition = z
  .object({
    /** JSON pointer into the (validated) arguments, e.g. "/command" or "/files/0/path". */
    pointer: z.string().regex(/^(\/.*)?$/, 'a JSON pointer: "" or starting with "/"'),
    glob: z.string().optional(),
    regex: z.string().optional(),
    enum: z.array(z.unknown()).optional(),
  })
  .strict()
  .refine((p) => [p.glob, p.regex, p.enum].filter((x) => x !== undefined).length === 1, {
    message: "give exactly one of glob, regex or enum",
  })
  .refine((p) => p.regex === undefined || compiles(p.regex), { message: "regex does not compile" });

export const permissionRuleSchema = z
  .object({
    effect: z.enum(EFFECTS),
    /** Tool-name glob ("write", "fs_*"); with a "/" it matches "namespace/name" ("mcp:github/*"). */
    tool: z.string().min(1).optional(),
    /** Namespace glob: "mcp:github", "mcp:*". */
    namespace: z.string().min(1).optional(),
    /** The permission action a tool declares ("read", "write", "network", ...). */
    action: z.string().min(1).optional(),
    /** Glob over the patterns the action declares for a call (e.g. a command line). */
    pattern: z.string().min(1).optional(),
    /** Glob over the call's resolved paths; relative globs are relative to the workspace. */
    path: z.string().min(1).optional(),
    /** A rule over one argument value. */
    param: paramCondition.optional(),
    /** Shown to the model when this rule denies. */
    reason: z.string().optional(),
  })
  .strict()
  .refine((r) => r.pattern === undefined || r.path === undefined, {
    message: "give pattern or path, not both (write two rules)",
  });

export type PermissionRule = z.infer<typeof permissionRuleSchema>;

/** A rule plus where it came from, so the decision can name it. */
export interface SourcedRule {
  rule: PermissionRule;
  /** e.g. "project .toolplane/config.json #2", "built-in: workspace boundary". */
  origin: string;
}

function compiles(source: string): boolean {
  try {
    new RegExp(source, "u");
    return true;
  } catch {
    return false;
  }
}

/** True when the rule names only a tool or namespace: it denies every call, so the tool leaves the catalog. */
export function isWholeToolRule(rule: PermissionRule): boolean {
  return (
    (rule.tool !== undefined || rule.namespace !== undefined) &&
    rule.action === undefined &&
    rule.pattern === undefined &&
    rule.path === undefined &&
    rule.param === undefined
  );
}
