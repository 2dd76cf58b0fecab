import path from "node:path";
import type { Config } from "../config/index.js";
import type { AnyTool, ToolSession } from "../declare/types.js";
import { type DeferConfig, TOOL_SEARCH_NAME } from "../defer/index.js";
import {
  type AskCallback,
  ExecutionHost,
  type HostTool,
  type HostToolSet,
  type SpillStore,
  type ToolErrorCode,
} from "../execute/index.js";
import type { PermissionPolicy } from "../permissions/index.js";
import type { Snapshot } from "../register/index.js";
import type { SessionDeferral } from "./deferral.js";
import { partitionTools, SESSION_NAMESPACE, searchWithheld, type VisibilityRules } from "./visibility.js";

export interface HostRequest {
  /** Decides `ask` permissions; without one every ask is denied. */
  ask?: AskCallback;
  log?: (line: string) => void;
}

/** What the host reads from the assembled session, each turn. */
export interface HostWiring {
  config: Config;
  spill: SpillStore;
  snapshot: () => Promise<Snapshot<AnyTool>>;
  policy: () => PermissionPolicy;
  visibility: () => VisibilityRules;
  deferral: SessionDeferral;
  deferConfig: () => Promise<DeferConfig>;
  /** The session's shared state: every host of the session sees the same reads and shell directory. */
  session?: ToolSession;
}

/**
 * The execution host for a session: validation, permissions, timeouts, result limits and spill.
 * Each run reads the current tool snapshot, so registry changes reach the next turn.
 */
export function assembleHost(w: HostWiring, request: HostRequest = {}): ExecutionHost {
  // Deferred tools stay callable: a call names the tool, and its arguments are validated against
  // the real schema all the same (a model that guessed them gets the schema's error back).
  const tools = async (): Promise<HostToolSet> => {
    const v = w.visibility();
    const { visible, withheld: hidden } = partitionTools(await w.snapshot(), v);
    const available: HostTool[] = [...visible];
    const withheld: Array<{ name: string; reason: string; code: ToolErrorCode }> = [];
    const withhold = (name: string, reason: string) => {
      const code = reason.startsWith("it is denied") ? "permission_denied" : "unknown_tool";
      withheld.push({ name, reason, code });
    };
    // a registered tool named tool_search is reserved: the session's own answers to that name
    for (const h of hidden) if (h.name !== TOOL_SEARCH_NAME) withhold(h.name, h.reason);
    const searchReason = searchWithheld(v);
    if (searchReason === undefined)
      available.push({ tool: w.deferral.searchTool, namespace: SESSION_NAMESPACE });
    else withhold(TOOL_SEARCH_NAME, searchReason);
    // tool_search ranks what this session defers: plan once if no catalog has been rendered yet
    w.deferral.ensurePlanned(() => visible, await w.deferConfig(), searchReason);
    return { tools: available, withheld };
  };
  const extra = (w.config.get("permissions.additionalDirectories") as string[]).map((d) =>
    path.resolve(w.config.projectRoot, d),
  );
  return new ExecutionHost({
    tools,
    config: w.config.ofKind("run-time"),
    policy: w.policy(),
    cwd: w.config.cwd,
    workspace: w.config.projectRoot,
    extraRoots: extra,
    spill: w.spill,
    ...(w.session ? { session: w.session } : {}),
    ...(request.ask ? { ask: request.ask } : {}),
    ...(request.log ? { log: request.log } : {}),
  });
}
