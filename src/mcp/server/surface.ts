import type { ClientHandlers } from "../../declare/client.js";
import { projectTool } from "../../declare/project.js";
import type { AnyTool, JsonSchema, ToolAnnotations } from "../../declare/types.js";
import type { ToolCall, ToolResult } from "../../execute/types.js";
import { mcpToolExtras, renderTool } from "../../render/index.js";
import { sha256 } from "../../util/hash.js";
import type { PromptList, PromptSource } from "./prompts.js";
import { promptListing } from "./prompts.js";
import type { ResourceSource } from "./resources.js";

/**
 * The one dependency the MCP server has on execution: run a call as the host does, with the
 * request's answers to what the tool asks (progress, log messages, elicitation, sampling).
 */
export type RunCall = (call: ToolCall, signal: AbortSignal, client?: ClientHandlers) => Promise<ToolResult>;

export interface McpToolEntry {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
}

/** One MCP session's tools: what it lists and how its calls run (its own loaded tools, its own reads). */
export interface McpSessionTools {
  /** The tools/list entries, in order. */
  list(): Promise<readonly McpToolEntry[]>;
  run: RunCall;
  /** Subscribes to changes of this session's list alone (a tool_search load); returns the unsubscribe. */
  subscribe?(listener: () => void): () => void;
}

interface CommonDeps {
  /** Skills users may invoke, and declared prompts; none when absent. */
  prompts?: PromptList;
  /** The resources served (skill bundles, declared ones); none when absent. */
  resources?: ResourceSource;
  /** How long a tool's elicitation or sampling request waits for the client. Default 300,000 ms. */
  clientTimeoutMs?: number;
  /** Subscribes to changes every session sees (the registry's `invalidated`); returns the unsubscribe. */
  subscribe?(listener: () => void): () => void;
  /**
   * What a new session is told at initialize (MCP's `instructions`): the catalog's attachments,
   * read when the server starts and again after each change. MCP fixes it per session, so a
   * session keeps what it was given; later sessions get the current text.
   */
  instructions?(): Promise<string>;
  /** Quiet time before a burst of changes becomes one list_changed. Default 100 ms. */
  debounceMs?: number;
  log?: (line: string) => void;
}

/**
 * What the server serves: either a session factory (each client its own state: `toolplane serve`)
 * or one tool list and one run shared by every session.
 */
export type ToolServerDeps = CommonDeps &
  (
    | { session(): McpSessionTools }
    | {
        /** The resolved tool set of the served scope, in registry order. */
        tools(): Promise<readonly AnyTool[]>;
        run: RunCall;
      }
  );

/** The session factory of either form of deps. */
export function sessionFactory(deps: ToolServerDeps): () => McpSessionTools {
  if ("session" in deps) return () => deps.session();
  // Tools are frozen, so a tool's entry never changes: after a change only new tools are projected.
  const entries = new WeakMap<AnyTool, McpToolEntry>();
  const shared: McpSessionTools = {
    list: async () =>
      (await deps.tools()).map((tool) => {
        let entry = entries.get(tool);
        if (!entry) {
          entry = toEntry(tool);
          entries.set(tool, entry);
        }
        return entry;
      }),
    run: deps.run,
  };
  return () => shared;
}

/** The prompt list, computed once per change and shared by every session, with its fingerprint. */
export class Surface {
  private prompts: Promise<{ sources: readonly PromptSource[]; fingerprint: string }> | undefined;

  constructor(readonly deps: ToolServerDeps) {}

  /** Drops the cached list; the next read recomputes it. */
  reset(): void {
    this.prompts = undefined;
  }

  promptList() {
    this.prompts ??= Promise.resolve(this.deps.prompts?.() ?? []).then((sources) => ({
      sources,
      fingerprint: sha256(JSON.stringify(promptListing(sources))),
    }));
    return this.prompts;
  }

  /** The fingerprint of resources/list (resources/list_changed is decided by it). */
  async resourcesFingerprint(): Promise<string> {
    return sha256(JSON.stringify((await this.deps.resources?.list()) ?? []));
  }
}

/** A tool list with the fingerprint list_changed is decided by, and its entries by name (a call looks one up). */
export async function fingerprinted(tools: McpSessionTools) {
  const entries = await tools.list();
  return {
    entries,
    fingerprint: sha256(JSON.stringify(entries)),
    byName: new Map(entries.map((e) => [e.name, e])),
  };
}

/** The tool's MCP entry as `catalog --provider mcp` renders it, outside a catalog (no budget). */
function toEntry(tool: AnyTool): McpToolEntry {
  return { ...(renderTool("mcp", projectTool(tool)) as McpToolEntry), ...mcpToolExtras(tool) };
}
