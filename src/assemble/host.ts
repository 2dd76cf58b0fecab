import path from "node:path";
import { type Config, perConfig } from "../config/index.js";
import type { ClientHandlers } from "../declare/client.js";
import type { AnyTool, ToolSession } from "../declare/types.js";
import { TOOL_SEARCH_NAME } from "../defer/index.js";
import {
  type AskCallback,
  type DecisionEvent,
  ExecutionHost,
  type HookEvent,
  type HostTool,
  type HostToolSet,
  type SpillStore,
  type ToolErrorCode,
} from "../execute/index.js";
import {
  functionEntries,
  type HookEntry,
  type HookRegistry,
  HookSet,
  type InProcessHooks,
} from "../hooks/index.js";
import { MCP_PROVIDER_PREFIX } from "../mcp/config.js";
import { MCP_NAME_PREFIX, serverKey } from "../mcp/names.js";
import type { PermissionPolicy } from "../permissions/index.js";
import type { Snapshot } from "../register/index.js";
import { type ProviderName, restoreArgs } from "../render/index.js";
import type { SessionDeferConfig, SessionDeferral } from "./deferral.js";
import { configuredHooks, hookPlaceOf } from "./hooks.js";
import { partitionTools, SESSION_NAMESPACE, searchWithheld, type VisibilityRules } from "./visibility.js";

/** onProgress, onLog, onElicit, onSample answer what a tool asks of its client (ToolContext). */
export interface HostRequest extends ClientHandlers {
  /**
   * The catalog the host's calls come from: `plane.catalog(provider)`'s. A call is answered as
   * that catalog showed the tools: its renamed tools are mapped back, and a deferred tool it sent
   * natively (anthropic, openai-responses: the provider's own search loads it) may be called
   * without tool_search, while one it listed by name must be loaded first. Without it: the
   * provider this session rendered catalogs for when that is one (or when they all agree), else
   * the names form. Arguments are restored (OpenAI strict nulls, Gemini enum strings) either way.
   */
  provider?: ProviderName;
  /** Decides `ask` permissions; without one every ask is denied. */
  ask?: AskCallback;
  /** Sees each permission decision of the calls (the trace a UI shows). */
  onDecision?: (event: DecisionEvent) => void;
  log?: (line: string) => void;
  /** In-process hooks of this host, run with the configured ones and the plane's (docs/hooks.md). */
  hooks?: InProcessHooks;
  /** Sees each hook that ran on a call, with what it decided (the trace a UI shows). */
  onHook?: (event: HookEvent) => void;
}

/** What the host reads from the assembled session, each turn. */
export interface HostWiring {
  config: Config;
  spill: SpillStore;
  snapshot: () => Promise<Snapshot<AnyTool>>;
  policy: () => PermissionPolicy;
  visibility: () => VisibilityRules;
  deferral: SessionDeferral;
  deferConfig: () => Promise<SessionDeferConfig>;
  /** The session's shared state: every host of the session sees the same reads and shell directory. */
  session?: ToolSession;
  /** The plane's in-process hooks (`plane.hooks`). */
  hooks: HookRegistry;
  /** The plane's lines for people: where a hook's errors and systemMessage go when the host has no `log`. */
  log?: (line: string) => void;
}

/**
 * The execution host for a session: validation, permissions, timeouts, result limits and spill.
 * Each run reads the current tool snapshot, so registry changes reach the next turn.
 */
export function assembleHost(w: HostWiring, request: HostRequest = {}): ExecutionHost {
  // A deferred tool is callable once tool_search loaded it (or the provider's native search did):
  // the model was told to load it first, and a call that skips that gets the same instruction.
  const tools = async (): Promise<HostToolSet> => {
    const v = w.visibility();
    const snapshot = await w.snapshot();
    const { visible, withheld: hidden } = partitionTools(snapshot, v);
    const withheld: Array<{ name: string; reason: string; code: ToolErrorCode }> = [];
    const withhold = (name: string, reason: string) => {
      const code = reason.startsWith("it is denied") ? "permission_denied" : "unknown_tool";
      withheld.push({ name, reason, code });
    };
    // a registered tool named tool_search is reserved: the session's own answers to that name
    for (const h of hidden) if (h.name !== TOOL_SEARCH_NAME) withhold(h.name, h.reason);
    const searchReason = searchWithheld(v);
    // tool_search ranks what this session defers: plan once if no catalog has been rendered yet
    w.deferral.ensurePlanned(() => visible, await w.deferConfig(), searchReason);
    const unloaded = w.deferral.unloaded(request.provider);
    const available: HostTool[] = [];
    for (const t of visible) {
      if (!unloaded.has(t.tool.name)) available.push(t);
      else withhold(t.tool.name, notLoaded(t.tool.name));
    }
    if (searchReason === undefined)
      available.push({ tool: w.deferral.searchToolFor(request.provider), namespace: SESSION_NAMESPACE });
    else withhold(TOOL_SEARCH_NAME, searchReason);
    return { tools: available, withheld, unavailable: unavailableServers(snapshot) };
  };
  const seen = w.deferral.seen;
  const own = functionEntries(request.hooks, "in-process (plane.host)");
  // a hook's errors and systemMessage are for people: the host's log, else the plane's
  const hookLog = request.log ?? w.log;
  let memo: { configured: readonly HookEntry[]; registered: readonly HookEntry[]; set: HookSet } | undefined;
  const hookSet = (): HookSet => {
    const configured = configuredHooks(w.config);
    const registered = w.hooks.entries();
    if (memo?.configured !== configured || memo.registered !== registered)
      memo = { configured, registered, set: new HookSet([...configured, ...registered, ...own]) };
    return memo.set;
  };
  return new ExecutionHost({
    tools,
    // the wire form the plane rendered comes back as the tool's own (render/restore-args.ts)
    restore: {
      name: (called) => seen.toolName(called, request.provider),
      args: (tool, args) => restoreArgs(tool.parameters, args) as Record<string, unknown>,
    },
    // read per call (getters), so Toolplane.set() reaches a host made before it
    get config() {
      return runtimeOf(w.config);
    },
    get policy() {
      return w.policy();
    },
    get extraRoots() {
      return additionalRootsOf(w.config);
    },
    cwd: w.config.cwd,
    workspace: w.config.projectRoot,
    spill: w.spill,
    ...(w.session ? { session: w.session } : {}),
    // named in an unknown-tool answer only when this turn's tool set holds it (not withheld)
    searchTool: TOOL_SEARCH_NAME,
    ...(request.ask ? { ask: request.ask } : {}),
    ...(request.onDecision ? { onDecision: request.onDecision } : {}),
    ...(request.log ? { log: request.log } : {}),
    ...clientHandlersOf(request),
    get hooks() {
      const set = hookSet();
      if (set.size === 0) return undefined;
      return {
        set,
        context: {
          ...hookPlaceOf(w.config),
          sessionId: w.spill.session,
          ...(hookLog ? { log: hookLog } : {}),
        },
      };
    },
    ...(request.onHook ? { onHook: request.onHook } : {}),
  });
}

function clientHandlersOf(request: ClientHandlers): ClientHandlers {
  const out: ClientHandlers = {};
  if (request.onProgress) out.onProgress = request.onProgress;
  if (request.onLog) out.onLog = request.onLog;
  if (request.onElicit) out.onElicit = request.onElicit;
  if (request.onSample) out.onSample = request.onSample;
  return out;
}

// read on every call: derived once per configuration
const runtimeOf = perConfig((config) => config.ofKind("run-time"));
const additionalRootsOf = perConfig((config) =>
  (config.get("permissions.additionalDirectories") as string[]).map((d) =>
    path.resolve(config.projectRoot, d),
  ),
);

/** The MCP servers this read could not list: their tools' name prefix and why. */
function unavailableServers(snapshot: Snapshot<AnyTool>): Array<{ prefix: string; reason: string }> {
  const out: Array<{ prefix: string; reason: string }> = [];
  for (const p of snapshot.problems) {
    if (p.outcome !== "rejected" || !p.provider.startsWith(MCP_PROVIDER_PREFIX)) continue;
    const server = p.provider.slice(MCP_PROVIDER_PREFIX.length);
    out.push({ prefix: `${MCP_NAME_PREFIX}${serverKey(server)}__`, reason: p.reason });
  }
  return out;
}

/** What a model that called a deferred tool without loading it reads (after "X is not available here: "). */
export function notLoaded(name: string): string {
  return (
    `it is deferred (listed by name only) and not loaded yet; call ${TOOL_SEARCH_NAME} first ` +
    `(e.g. {"pattern": "^${name}$"}, or a query for what it does), then call it from the next turn`
  );
}
