import path from "node:path";
import { isInside, realpathOfLongestPrefix } from "../permissions/paths.js";
import type { PermissionRule } from "../permissions/rules.js";
import type { ConfigKey } from "./keys.js";

/**
 * What a project that nobody trusted may set. A repository's `.toolplane/config.json` is input
 * toolplane does not control: until `toolplane trust` records the project, it may only tighten.
 * Each key that could run code or loosen permissions has a gate here that keeps the safe part of
 * the project's value and reports the rest; every other key applies as written (APPLIED_AS_IS).
 * A new key must be put in one of the two (test/config/trust.test.ts checks it).
 */

/** A part of the project's value that was not applied, and why. */
export interface IgnoredPart {
  reason: string;
  value: unknown;
}

export interface GateResult {
  /** The value to apply in the project layer; undefined: the key is not applied at all. */
  value?: unknown;
  /** For a list merged across layers: the position in the file of each item kept. */
  indices?: number[];
  ignored: IgnoredPart[];
}

export interface GateContext {
  /** A key's value from the trusted layers only (user, environment, --set, defaults). */
  trusted(key: ConfigKey): unknown;
  projectRoot: string;
}

export type Gate = (value: unknown, ctx: GateContext) => GateResult;

const SEVERITY: Record<string, number> = { allow: 0, ask: 1, deny: 2 };

const notAtAll =
  (reason: string): Gate =>
  (value) => ({ ignored: [{ reason, value }] });

function noHooks(value: unknown): GateResult {
  return (value as unknown[]).length === 0
    ? { value, ignored: [] }
    : {
        ignored: [
          { reason: "its hooks run commands from the repository around every call; they do not run", value },
        ],
      };
}

/** A list the project may narrow (keep items the trusted layers have), never add to. */
function narrowOnly(key: ConfigKey, reason: string): Gate {
  return (value, ctx) => {
    const own = new Set(ctx.trusted(key) as string[]);
    const list = value as string[];
    const kept = list.filter((n) => own.has(n));
    const dropped = list.filter((n) => !own.has(n));
    return dropped.length === 0
      ? { value, ignored: [] }
      : { value: kept, ignored: [{ reason, value: dropped }] };
  };
}

export const PROJECT_GATES: Partial<Record<ConfigKey, Gate>> = {
  "trust.projects": notAtAll("a project cannot trust itself or others"),

  // an endpoint would get the tools' texts, the queries and the key the configuration names
  "search.embedder": (value) =>
    value === "off"
      ? { value, ignored: [] }
      : { ignored: [{ reason: "sends tool texts and queries, with an API key, to an embedder", value }] },

  "tools.modules": (value) =>
    (value as unknown[]).length === 0
      ? { value, ignored: [] }
      : { ignored: [{ reason: "loads and runs code from the repository", value }] },

  // a hook is a command run around every matching call: the repository's commands, not the user's
  "hooks.PreToolUse": noHooks,
  "hooks.PermissionRequest": noHooks,
  "hooks.PostToolUse": noHooks,
  "hooks.PostToolUseFailure": noHooks,

  /**
   * Servers with a command start a program: left out. The rest (URL servers) are added to the
   * user's servers without their `trusted` flag (which lets annotations relax permissions); one
   * that would replace a server of the user's (and inherit the user's rules for its name) is left out.
   */
  "mcp.servers": (value, ctx) => {
    const own = (ctx.trusted("mcp.servers") ?? {}) as Record<string, Record<string, unknown>>;
    const out: Record<string, unknown> = { ...own };
    const ignored: IgnoredPart[] = [];
    for (const [name, server] of Object.entries(value as Record<string, Record<string, unknown>>)) {
      if ("command" in server) {
        ignored.push({
          reason: "starts a program (an MCP server with a command)",
          value: { [name]: server },
        });
      } else if (Object.hasOwn(own, name)) {
        ignored.push({
          reason: "replaces an MCP server of the user's configuration",
          value: { [name]: server },
        });
      } else {
        const { trusted, ...rest } = server;
        if (trusted === true)
          ignored.push({
            reason: "trusted: true lets the server's annotations relax permissions",
            value: { [name]: { trusted } },
          });
        out[name] = rest;
      }
    }
    return { value: out, ignored };
  },

  /**
   * Deny rules always apply. An allow rule loosens; an ask rule loosens only where the trusted
   * default is deny (a call no rule covers would be denied, and would ask instead).
   */
  "permissions.rules": (value, ctx) => {
    const defaultDeny = ctx.trusted("permissions.defaultEffect") === "deny";
    const kept: PermissionRule[] = [];
    const indices: number[] = [];
    const allows: PermissionRule[] = [];
    const asks: PermissionRule[] = [];
    (value as PermissionRule[]).forEach((rule, i) => {
      if (rule.effect === "allow") allows.push(rule);
      else if (rule.effect === "ask" && defaultDeny) asks.push(rule);
      else {
        kept.push(rule);
        indices.push(i);
      }
    });
    const ignored: IgnoredPart[] = [];
    if (allows.length > 0) ignored.push({ reason: "allow rules loosen permissions", value: allows });
    if (asks.length > 0)
      ignored.push({ reason: "ask rules loosen the user's default effect deny", value: asks });
    return { value: kept, indices, ignored };
  },

  "permissions.defaultEffect": (value, ctx) => {
    const own = ctx.trusted("permissions.defaultEffect") as string;
    return SEVERITY[value as string]! >= SEVERITY[own]!
      ? { value, ignored: [] }
      : { ignored: [{ reason: `is less strict than "${own}"`, value }] };
  },

  "permissions.workspaceBoundary": (value, ctx) =>
    value === false && ctx.trusted("permissions.workspaceBoundary") === true
      ? { ignored: [{ reason: "switches the workspace boundary off", value }] }
      : { value, ignored: [] },

  /** The project may narrow the list, never add a directory the user did not. */
  "permissions.additionalDirectories": (value, ctx) => {
    const resolve = (d: string) => path.resolve(ctx.projectRoot, d);
    const own = new Set((ctx.trusted("permissions.additionalDirectories") as string[]).map(resolve));
    const list = value as string[];
    const added = list.filter((d) => !own.has(resolve(d)));
    const kept = list.filter((d) => own.has(resolve(d)));
    return added.length === 0
      ? { value, ignored: [] }
      : { value: kept, ignored: [{ reason: "widens the workspace boundary", value: added }] };
  },

  /** The project may add sensitive-file globs, never drop one. */
  "permissions.askFiles": (value, ctx) => {
    const list = value as string[];
    const own = ctx.trusted("permissions.askFiles") as string[];
    const dropped = own.filter((g) => !list.includes(g));
    return dropped.length === 0
      ? { value, ignored: [] }
      : {
          value: [...list, ...dropped],
          ignored: [{ reason: "drops sensitive-file checks", value: dropped }],
        };
  },

  /** The project may make the sandbox stricter (off < workspace-write < read-only), never looser. */
  "tools.sandbox": (value, ctx) => {
    const rank: Record<string, number> = { off: 0, "workspace-write": 1, "read-only": 2 };
    const own = ctx.trusted("tools.sandbox") as string;
    return rank[value as string]! >= rank[own]!
      ? { value, ignored: [] }
      : { ignored: [{ reason: `is a weaker sandbox than "${own}"`, value }] };
  },

  "tools.sandboxNetwork": (value, ctx) =>
    value === true && ctx.trusted("tools.sandboxNetwork") !== true
      ? { ignored: [{ reason: "lets sandboxed commands reach the network", value }] }
      : { value, ignored: [] },

  /** Names the project adds to a command's environment could hand it the user's secrets: only the user's own apply. */
  "tools.shellEnv": narrowOnly("tools.shellEnv", "passes more of the environment to commands"),

  /** A path the project adds would show the sandbox the user's files (a credential store, by name): only the user's own apply. */
  "tools.sandboxToolchains": narrowOnly(
    "tools.sandboxToolchains",
    "shows sandboxed commands more of the disk",
  ),
  "tools.sandboxReadable": narrowOnly("tools.sandboxReadable", "shows sandboxed commands more of the disk"),

  /**
   * The spill store takes its base over (chmod 0700) and sweeps old session folders in it, and
   * read/grep may read the session's folder: a base outside the project is the user's to choose.
   */
  "results.spillDir": (value, ctx) => {
    if (value === null) return { value, ignored: [] };
    const root = realpathOfLongestPrefix(ctx.projectRoot);
    return isInside(realpathOfLongestPrefix(path.resolve(ctx.projectRoot, value as string)), root)
      ? { value, ignored: [] }
      : { ignored: [{ reason: "puts spill files outside the project", value }] };
  },

  /** A skill root outside the project would let the skill tool read files past the boundary. */
  "skills.paths": (value, ctx) => {
    const root = realpathOfLongestPrefix(ctx.projectRoot);
    const inside = (p: string) =>
      !(p === "~" || p.startsWith("~/")) &&
      isInside(realpathOfLongestPrefix(path.resolve(ctx.projectRoot, p)), root);
    const list = value as string[];
    const outside = list.filter((p) => !inside(p));
    return outside.length === 0
      ? { value, ignored: [] }
      : {
          value: list.filter(inside),
          ignored: [{ reason: "reads skills from outside the project", value: outside }],
        };
  },
};

/**
 * Keys a project applies as written whether or not it is trusted: they change what the model
 * sees, narrow it, or bound how a call runs, but run no code and loosen no permission.
 */
export const APPLIED_AS_IS: readonly ConfigKey[] = [
  "catalog.budget.chars",
  "catalog.budget.tokens",
  "catalog.descriptionMaxChars",
  "catalog.volatile",
  "defer.mode",
  "defer.threshold",
  "defer.maxSchemaBytes",
  "defer.native",
  "defer.nativeSearch",
  "defer.resident",
  "defer.thresholdTokens",
  "defer.tools",
  "tools.disabled",
  "tools.examples",
  "tools.timeoutMs",
  "tools.timeouts",
  "tools.maxTimeoutMs",
  "tools.maxConcurrency",
  "tools.argsMaxBytes",
  "tools.providerTimeoutMs",
  "skills.disabled",
  "skills.auditIntervalMs",
  "results.inlineMaxBytes",
  "results.rawMaxBytes",
  "results.lineMaxChars",
  "results.previewBytes",
  "results.spillMaxBytes",
  "results.spillMaxAgeHours",
  "results.keepSpill",
  "grep.maxMatches",
  "scopes.restrictions",
  "doctor.expect",
  "doctor.overrides",
  "serve.maxRequestBytes",
  "serve.maxSessions",
  "serve.sessionIdleMs",
  // how long a question to the client waits: no answer denies, so a value only hastens a denial
  "serve.askTimeoutMs",
];
