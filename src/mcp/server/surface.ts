import { projectTool } from "../../declare/project.js";
import type { AnyTool } from "../../declare/types.js";
import type { ToolCall, ToolResult } from "../../execute/types.js";
import { sha256 } from "../../util/hash.js";
import type { PromptList, PromptSource } from "./prompts.js";
import { promptListing } from "./prompts.js";

/** The one dependency the MCP server has on execution: run a call as the host does. */
export type RunCall = (call: ToolCall, signal: AbortSignal) => Promise<ToolResult>;

export interface McpToolEntry {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ToolServerDeps {
  /** The resolved tool set of the served scope, in registry order. */
  tools(): Promise<readonly AnyTool[]>;
  run: RunCall;
  /** Skills users may invoke; none when absent. */
  prompts?: PromptList;
  /** Subscribes to change events (the registry's `invalidated`); returns the unsubscribe. */
  subscribe?(listener: () => void): () => void;
  /** Quiet time before a burst of changes becomes one list_changed. Default 100 ms. */
  debounceMs?: number;
  log?: (line: string) => void;
}

/**
 * What the server shows, computed once per change and shared by every session: the tools/list
 * entries (the projection only: name, description, inputSchema) and a fingerprint of each list.
 */
export class Surface {
  private tools: Promise<{ entries: McpToolEntry[]; fingerprint: string }> | undefined;
  private prompts: Promise<{ sources: readonly PromptSource[]; fingerprint: string }> | undefined;

  // Tools are frozen, so a tool's entry never changes: after a change only new tools are projected.
  private readonly entries = new WeakMap<AnyTool, McpToolEntry>();

  constructor(readonly deps: ToolServerDeps) {}

  /** Drops the cached lists; the next read recomputes them. */
  reset(): void {
    this.tools = undefined;
    this.prompts = undefined;
  }

  toolList() {
    this.tools ??= this.deps.tools().then((tools) => {
      const entries = tools.map((tool) => {
        let entry = this.entries.get(tool);
        if (!entry) {
          entry = toEntry(tool);
          this.entries.set(tool, entry);
        }
        return entry;
      });
      return { entries, fingerprint: sha256(JSON.stringify(entries)) };
    });
    return this.tools;
  }

  promptList() {
    this.prompts ??= Promise.resolve(this.deps.prompts?.() ?? []).then((sources) => ({
      sources,
      fingerprint: sha256(JSON.stringify(promptListing(sources))),
    }));
    return this.prompts;
  }
}

/** The allowlist copy; `$schema` is dropped like every other provider adapter drops it. */
function toEntry(tool: AnyTool): McpToolEntry {
  const projection = projectTool(tool);
  const { $schema: _dialect, ...inputSchema } = projection.parameters;
  return { name: projection.name, description: projection.description, inputSchema };
}
