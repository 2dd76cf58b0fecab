import type { z as Z } from "zod";
import { lazySchema, zod } from "../util/zod.js";
import { GLOB_MAX_CHARS, pathGlobProblem } from "./glob.js";

export const EFFECTS = ["allow", "ask", "deny"] as const;
export type Effect = (typeof EFFECTS)[number];

/** Tool names are 1 to 64 letters, digits, `_` and `-` (defineTool); `*` and `?` are the glob's own. */
const TOOL_NAME_GLOB = /^[A-Za-z0-9_\-*?]+$/;
const TOOL_NAME_MAX = 64;

/** A rule string: non-empty and bounded, so matching it costs a bounded amount per value. */
const ruleText = () => zod().string().min(1).max(GLOB_MAX_CHARS, `at most ${GLOB_MAX_CHARS} characters`);

/**
 * One permission rule. Every condition present must match for the rule to apply; a rule with
 * no condition matches every call. Among the rules that apply, deny beats ask beats allow.
 */
const paramCondition = () => {
  const z = zod();
  return z
    .object({
      /** JSON pointer into the (validated) arguments, e.g. "/command" or "/files/0/path". */
      pointer: z.string().regex(/^(\/.*)?$/, 'a JSON pointer: "" or starting with "/"'),
      glob: ruleText().optional(),
      regex: ruleText().optional(),
      enum: z.array(z.unknown()).min(1, "an empty enum can never match: list at least one value").optional(),
    })
    .strict()
    .refine((p) => [p.glob, p.regex, p.enum].filter((x) => x !== undefined).length === 1, {
      message: "give exactly one of glob, regex or enum",
    })
    .refine((p) => p.regex === undefined || compiles(p.regex), { message: "regex does not compile" });
};

/** Built on first use (see util/zod.ts): only a configured rule needs it. */
export const permissionRuleSchema = lazySchema(() => {
  const z = zod();
  return z
    .object({
      effect: z.enum(EFFECTS),
      /**
       * Tool-name glob ("write", "fs_*"); with a "/" it matches "namespace/name" ("mcp:github/*").
       * For an MCP tool the name after "mcp:<server>/" may be the server's own tool name
       * ("mcp:github/create_issue") or the name the model sees ("mcp__github__create_issue").
       */
      tool: ruleText().optional(),
      /** Namespace glob: "mcp:github", "mcp:*". */
      namespace: ruleText().optional(),
      /** The permission action a tool declares ("read", "write", "network", ...). */
      action: ruleText().optional(),
      /** Glob over the patterns the action declares for a call (e.g. a command line). */
      pattern: ruleText().optional(),
      /** Glob over the call's resolved paths; relative globs are relative to the workspace. */
      path: ruleText().optional(),
      /** A rule over one argument value. */
      param: paramCondition().optional(),
      /** Shown to the model when this rule denies. */
      reason: z.string().max(GLOB_MAX_CHARS).optional(),
    })
    .strict()
    .refine((r) => r.pattern === undefined || r.path === undefined, {
      message: "give pattern or path, not both (write two rules)",
    })
    .superRefine((r, ctx) => {
      if (r.tool !== undefined) {
        const problem = toolGlobProblem(r.tool, r.namespace);
        if (problem !== undefined) ctx.addIssue({ code: "custom", path: ["tool"], message: problem });
      }
      if (r.path !== undefined) {
        const problem = pathGlobProblem(r.path);
        if (problem !== undefined)
          ctx.addIssue({
            code: "custom",
            path: ["path"],
            message: `path ${JSON.stringify(r.path)} ${problem}`,
          });
      }
    });
});

export type PermissionRule = Z.infer<ReturnType<typeof permissionRuleSchema>>;

/** A rule plus where it came from, so the decision can name it. */
export interface SourcedRule {
  rule: PermissionRule;
  /** e.g. "project .toolplane/config.json #2", "built-in: workspace boundary". */
  origin: string;
  /** The configuration layer it came from ("user", "project", ...), when it came from one. */
  layer?: string;
  /**
   * More globs its `tool` condition also accepts, in the same form (the assembled policy adds the
   * model-facing name of an MCP tool a rule names by the server's own name). The rule matches when
   * `tool` or any of these does.
   */
  toolAliases?: readonly string[];
}

/**
 * Why a `tool` condition can never match a tool, or undefined. A tool name has only letters,
 * digits, `_` and `-`, so "mcp:good.echo" or Claude Code's "Bash(git *)" would silently match
 * nothing; they are refused instead, with the form that works. After an `mcp:` namespace the
 * server's own tool name may hold any character (it is matched through the model-facing name).
 */
export function toolGlobProblem(tool: string, namespace?: string): string | undefined {
  const slash = tool.lastIndexOf("/");
  const name = slash === -1 ? tool : tool.slice(slash + 1);
  const ns = slash === -1 ? namespace : tool.slice(0, slash);
  const quoted = JSON.stringify(tool);
  if (slash !== -1 && (ns === "" || name === ""))
    return `tool ${quoted} can never match: write "<namespace>/<name>", e.g. "mcp:github/create_issue" or "mcp:github/*"`;
  const mcpName = ns !== undefined && (/^mcp:/.test(ns) || /^[*?]/.test(ns));
  if (mcpName) return undefined;
  if (!TOOL_NAME_GLOB.test(name)) {
    const hint = /[()]/.test(tool)
      ? '; rules name the tool alone and put the rest in "pattern", "path" or "param", e.g. {"tool": "bash", "pattern": "git *"}'
      : slash === -1 && tool.includes(":")
        ? `; for one tool of a namespace write "<namespace>/<tool>" (e.g. "mcp:github/create_issue"), for a whole namespace "namespace": "<namespace>" (e.g. "mcp:github")`
        : '; for an MCP server\'s tool write "mcp:<server>/<tool>"';
    return `tool ${quoted} can never match: a tool name has only letters, digits, _ and -${hint}`;
  }
  if (!/[*?]/.test(name) && name.length > TOOL_NAME_MAX)
    return `tool ${quoted} can never match: a tool name is at most ${TOOL_NAME_MAX} characters`;
  return undefined;
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
