import type { z } from "zod";
import type {
  ElicitRequest,
  ElicitResult,
  LogMessage,
  ProgressUpdate,
  SampleRequest,
  SampleResult,
} from "./client.js";
import type { PrebuiltSchema } from "./prebuilt.js";

/** A JSON Schema document (draft-07 once normalised). */
export type JsonSchema = { [key: string]: unknown };

/**
 * A content block the model receives as (part of) a tool result. `resource` on a text block and
 * `uri` on a file keep MCP's form for `toolplane serve` (an embedded resource, a resource link);
 * a model reads the text or the file either way. A `file` of an `audio/*` type is MCP audio.
 */
export type ModelContent =
  | { type: "text"; text: string; resource?: ResourceRef }
  | { type: "image"; mimeType: string; data: string }
  | { type: "file"; mimeType: string; data: string; name?: string; uri?: string };

/**
 * Where a text block comes from. `embedded`: the text is the resource's contents (MCP `resource`);
 * `link`: the text only points at it (MCP `resource_link`, which a client reads when it wants).
 */
export interface ResourceRef {
  kind: "embedded" | "link";
  uri: string;
  mimeType?: string;
  /** For a link: the name a client shows (default: the uri). */
  name?: string;
  description?: string;
}

/** What an output render function may return: plain text, or blocks plus paging facts. */
export type RenderedOutput =
  | string
  | {
      content: ModelContent[];
      /** true when the value was cut (pagination, limits); the text itself must show the cut too. */
      truncated?: boolean;
      /** the next offset to ask for, present only when the page was cut. */
      nextOffset?: number;
    };

/** Everything a tool's execute function may use. Never seen by the model. */
export interface ToolContext {
  signal: AbortSignal;
  cwd: string;
  /** The workspace root (nearest ancestor with .git, else cwd). */
  workspace: string;
  /** Run-time configuration values, by dotted key. */
  config: Readonly<Record<string, unknown>>;
  /** Progress or debug lines for people, not for the model. */
  log?: (line: string) => void;
  /** Streaming output sink, for tools whose output may be larger than memory should hold. */
  stream?: OutputStream;
  /**
   * Set by the execution host: how this session's permissions treat paths a tool reaches beyond
   * the one it was called with (each file a search would show, the file a path turned out to be
   * once opened). A tool run without a host has none and keeps to the workspace.
   */
  paths?: PathAccess;
  /** State this session's calls share (what read returned, the shell's directory); the host gives one. */
  session?: ToolSession;
  /**
   * The execution host sets the four below (src/execute/client-context.ts). Reports progress to
   * whoever asked for it (an MCP client that sent a progressToken, a harness's onProgress);
   * dropped when no one listens.
   */
  progress?: (update: ProgressUpdate) => void;
  /** A log message for the client (MCP `notifications/message`, filtered by its `logging/setLevel`). */
  logMessage?: (message: LogMessage) => void;
  /**
   * Asks the user through the client (MCP `elicitation/create`); an accepted answer is checked
   * against the form. Throws ClientUnavailableError when nobody can be asked.
   */
  elicit?: (request: ElicitRequest) => Promise<ElicitResult>;
  /** Asks the client's model (MCP `sampling/createMessage`). Throws ClientUnavailableError when there is none. */
  sample?: (request: SampleRequest) => Promise<SampleResult>;
}

/** A permission decision about one path, made without asking anyone. */
export type PathVerdict = "allow" | "ask" | "deny";

/** The session's permission policy for paths, as a tool sees it (see ToolContext.paths). */
export interface PathAccess {
  /**
   * Real paths of the folders whose files a call may reach besides the workspace
   * (permissions.additionalDirectories, this session's spill directory).
   */
  readonly roots: readonly string[];
  /** False when permissions.workspaceBoundary is off: no path is refused for being outside. */
  readonly boundary: boolean;
  /** Paths whose contents run code outside a sandbox later (.git, .toolplane, ...): a sandbox keeps them read-only. */
  readonly protected?: readonly string[];
  /**
   * The decision for showing each path (absolute) in this call's result: the same rules and
   * askFiles as a call that named the path itself. An ask this call was already approved under
   * (the same rule) is "allow". `real`: the paths are already real (a walk that follows no
   * symlink reported them under a real folder), so they are not resolved again.
   */
  check(paths: readonly string[], options?: { real?: boolean }): PathVerdict[];
  /** Puts one "ask" to the approver (one prompt at a time, like every ask); true when approved. */
  approve(path: string): Promise<boolean>;
}

/** What `read` saw of a file: edit and write refuse a file that is no longer this version. */
export interface FileSnapshot {
  mtimeMs: number;
  size: number;
  /** sha256 of the bytes, hex; absent when the file was too large to hash (too large to edit, too). */
  hash?: string;
  /** dev:ino:size:mtime:ctime, so a version already seen is not hashed again. */
  version?: string;
}

/** One session's state shared by its calls. Never seen by the model. */
export interface ToolSession {
  /** By real path: the version of each file the model last read (or wrote). Bounded (LRU). */
  readonly files: {
    get(realPath: string): FileSnapshot | undefined;
    set(realPath: string, snapshot: FileSnapshot): unknown;
    delete(realPath: string): unknown;
  };
  /** Small values a tool keeps between calls, by key (e.g. the shell's working directory). */
  readonly values: Map<string, unknown>;
}

/** A sink a streaming tool writes its raw output to; the host decides inline vs spill. */
export interface OutputStream {
  write(chunk: string | Uint8Array): Promise<void>;
}

export type SchemaInput = z.ZodType | PrebuiltSchema | JsonSchema;

export interface OutputDeclaration<O> {
  /** Schema of the canonical value execute returns: separate from the input schema. */
  schema: SchemaInput;
  /** Turns the canonical value into what the model reads. */
  render: (value: O) => RenderedOutput;
}

export interface PermissionDeclaration<I> {
  /** The permission action a call needs, e.g. "read", "search", "network". */
  action: string;
  /** Patterns the action applies to for one call (e.g. the path or the command). */
  patterns?: (args: I) => string[];
  /** Argument values that are filesystem paths: resolved and kept inside the workspace. */
  paths?: (args: I) => string[];
  /**
   * A call that needs several permissions, each with its own action (a shell command: a `command`
   * per simple command, a `write` per target). When present it replaces action/patterns/paths;
   * every need is decided and the call takes the strictest. May be async (a parser loads lazily).
   */
  needs?: (args: I, ctx: PermissionContext) => PermissionNeed[] | Promise<PermissionNeed[]>;
}

/** What a `needs` function may look at: where the call runs. */
export interface PermissionContext {
  cwd: string;
  workspace: string;
  config: Readonly<Record<string, unknown>>;
  session?: ToolSession;
}

/** One permission a call needs. */
export interface PermissionNeed {
  action: string;
  patterns?: string[];
  /** Paths, resolved against `cwd` (default: the call's cwd). */
  paths?: Array<string | { path: string; subtree?: boolean }>;
  cwd?: string;
  /** The least strict effect this need may get, with why: a tool that cannot see what a call does says ask. */
  floor?: { effect: "ask" | "deny"; reason: string };
  /**
   * The tool knows this need cannot write or run anything (a command in bash's read-only set):
   * when no rule applies, `permissions.defaultEffect` decides it instead of the action's default.
   */
  knownSafe?: string;
}

export interface DisplayDeclaration<I> {
  title?: string;
  /** One line a UI shows for a call. */
  summarize?: (args: I) => string;
}

export interface SelectionCase {
  task: string;
  /** The call a model should make for this task; checked against the input schema. */
  args?: unknown;
  /** The canonical output execute should return for `args`; `toolplane doctor` checks it against the output schema. */
  expected?: unknown;
}

export interface SelectionDeclaration {
  /** Tasks for which this tool should be chosen. */
  shouldSelect: SelectionCase[];
  /** Tasks for which it must be left alone. */
  shouldNotSelect: SelectionCase[];
}

/**
 * What the tool does to the world, for clients that show or gate calls by it (MCP tool
 * annotations, 2025-06-18). Hints only: permissions never read them.
 */
export interface ToolAnnotations {
  /** A human-readable name. */
  title?: string;
  /** It changes nothing outside its result. */
  readOnlyHint?: boolean;
  /** When it changes things, it may destroy or overwrite what was there (not only add). */
  destructiveHint?: boolean;
  /** Calling it again with the same arguments changes nothing more. */
  idempotentHint?: boolean;
  /** It reaches beyond the local machine and workspace (the network, other systems). */
  openWorldHint?: boolean;
}

export interface ToolDeclaration<I = unknown, O = unknown> {
  name: string;
  description: string;
  parameters: SchemaInput;
  output: OutputDeclaration<O>;
  execute: (args: I, ctx: ToolContext) => O | Promise<O>;
  timeoutMs?: number;
  concurrencySafe?: boolean;
  display?: DisplayDeclaration<I>;
  permission?: PermissionDeclaration<I>;
  selection?: SelectionDeclaration;
  /** false opts out of spilling over the inline limit (read: no read -> spill -> read loop). */
  spill?: boolean;
  /** Permission namespace, e.g. "mcp:github"; defaults to the provider's namespace. */
  namespace?: string;
  /**
   * Deferred loading: "never" keeps the tool in the model's tool list, "always" lists it by name
   * only (loaded through tool_search), "auto" (default) leaves it to `defer.mode` and the
   * threshold. Config `defer.tools` wins over it.
   */
  defer?: "never" | "always" | "auto";
  annotations?: ToolAnnotations;
}

/** Host-only part of a tool: everything that must never reach a model request. */
export interface ToolHost<I, O> {
  output: OutputDeclaration<O>;
  execute: (args: I, ctx: ToolContext) => O | Promise<O>;
  timeoutMs: number | undefined;
  concurrencySafe: boolean;
  display: DisplayDeclaration<I> | undefined;
  permission: PermissionDeclaration<I> | undefined;
  selection: SelectionDeclaration | undefined;
  spill: boolean;
  namespace: string | undefined;
  defer: "never" | "always" | "auto" | undefined;
  annotations: Readonly<ToolAnnotations> | undefined;
}

export interface ValidationIssue {
  /** JSON pointer of the offending value ("" for the root). */
  path: string;
  message: string;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/** A declared tool: model-facing fields at the top, host-only fields under `host`. */
export interface Tool<I = unknown, O = unknown> {
  readonly kind: "tool";
  readonly name: string;
  readonly description: string;
  /** Draft-07 JSON Schema of the parameters; built on first read (deferred tools never build it). */
  readonly parameters: JsonSchema;
  /** Draft-07 JSON Schema of the canonical output value. */
  readonly outputSchema: JsonSchema;
  readonly host: ToolHost<I, O>;
  validateInput(args: unknown): ValidationResult<I>;
  validateOutput(value: unknown): ValidationResult<O>;
}

// biome-ignore lint/suspicious/noExplicitAny: a tool of any argument and output type
export type AnyTool = Tool<any, any>;
