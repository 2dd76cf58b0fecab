// The Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`) is an optional peer dependency: only
// this module loads it, through the `toolplane/claude-agent-sdk` export, never the root. It ships
// as an ES module only, so it is imported when the server is made, not required with the bundle.
import type { McpSdkServerConfigWithInstance } from "@anthropic-ai/claude-agent-sdk";
import type { Toolplane } from "../assemble/toolplane.js";
import { TOOL_SEARCH_NAME } from "../defer/index.js";
import type { ToolResult } from "../execute/index.js";
import { MCP_IMPLEMENTATION } from "../mcp/config.js";
import { loadBaseSdk } from "../mcp/sdk.js";
import { callResult } from "../mcp/server/content.js";
import { importModule } from "../util/import-module.js";
import {
  attachmentMessageText,
  type Bridge,
  type BridgedTool,
  type BridgeOptions,
  liveBridge,
} from "./bridge.js";

export interface ClaudeAgentSdkOptions extends Omit<BridgeOptions, "provider"> {
  /** The server's name in `query({ options: { mcpServers: { [name]: server } } })`; default `toolplane`. */
  name?: string;
  /** Sees each canonical ToolResult (spill path, error code); the model reads the MCP content. */
  onResult?: (result: ToolResult) => void;
}

/** Claude Code's per-tool MCP `_meta` key that keeps a tool out of its own tool search. */
const ALWAYS_LOAD = "anthropic/alwaysLoad";

/**
 * The plane's model-visible tools as the Claude Agent SDK's in-process MCP server
 * (`createSdkMcpServer`): pass it as `query({ prompt, options: { mcpServers: { toolplane: server } } })`.
 * It lists toolplane's MCP rendering (names form: resident tools, tool_search, then the tools it
 * loaded; a load sends tools/list_changed) and runs every tools/call through the toolplane host
 * (validation, permissions with `ask`, timeouts, result limits, spill). The model sees the tools
 * as `mcp__NAME__TOOL`, so allow them in Claude Code's own permissions too (`allowedTools`).
 * While toolplane defers, each listed tool is marked to stay loaded (`_meta["anthropic/alwaysLoad"]`):
 * Claude Code's own tool search would otherwise hide tool_search behind a second search.
 */
export async function claudeAgentSdkServer(
  plane: Toolplane,
  options: ClaudeAgentSdkOptions = {},
): Promise<McpSdkServerConfigWithInstance> {
  const { onResult, name = "toolplane", ...rest } = options;
  const bridgeOptions: BridgeOptions = { ...rest, provider: "mcp" };
  const [sdk, mcp] = await Promise.all([
    importModule<typeof import("@anthropic-ai/claude-agent-sdk")>("@anthropic-ai/claude-agent-sdk"),
    loadBaseSdk(),
  ]);
  // the deferred names, skill listing and MCP servers' instructions: MCP gives them at initialize
  const instructions = await attachmentMessageText(plane, bridgeOptions);
  const config = sdk.createSdkMcpServer({
    name,
    version: MCP_IMPLEMENTATION.version,
    ...(instructions === "" ? {} : { instructions }),
  });
  const server = config.instance.server;
  server.registerCapabilities({ tools: { listChanged: true } });
  let current: Bridge | undefined;
  let listed = "";
  // the config is the target: the tools follow the plane while the config is held
  const live = await liveBridge(plane, bridgeOptions, config, (_config, bridge) => {
    current = bridge;
    const list = JSON.stringify(bridge.tools.map((t) => t.name));
    if (list !== listed && listed !== "" && server.transport !== undefined)
      void server.sendToolListChanged().catch(() => {});
    listed = list;
  });
  server.setRequestHandler(mcp.ListToolsRequestSchema, async () => {
    await live.settled();
    const bridge = current!;
    // toolplane defers while its tool_search is listed (it stays once a load emptied the deferred set)
    const keep = bridge.tools.some((t) => t.tool === TOOL_SEARCH_NAME);
    return { tools: bridge.tools.map((t) => listEntry(t, keep)) };
  });
  server.setRequestHandler(mcp.CallToolRequestSchema, async (request, extra) => {
    const result = await current!.callByName(request.params.name, request.params.arguments ?? {}, {
      id: String(extra.requestId),
      signal: extra.signal,
    });
    onResult?.(result);
    // a tool_search load rebuilds the list; list_changed goes out before the result
    await live.settled();
    // no structuredContent (see listEntry): the model reads toolplane's rendered text
    return callResult(result, undefined);
  });
  return config;
}

/**
 * A tools/list entry: the catalog's MCP entry without its outputSchema, marked to stay loaded
 * while toolplane defers. Claude Code hands the model a result's structuredContent instead of its
 * text blocks when there is one (seen with the bundled CLI of 0.2.86 and 0.3.337), and MCP wants
 * structuredContent for a tool listed with an outputSchema: listed without one, the model reads
 * toolplane's rendered text (truncation and spill notes, tool_search's ranked list), not the
 * canonical value.
 */
function listEntry(t: BridgedTool, alwaysLoad: boolean) {
  const { outputSchema: _canonical, ...wire } = t.wire as Record<string, unknown>;
  const entry = wire as Record<string, unknown> & { name: string; inputSchema: { type: "object" } };
  if (alwaysLoad) entry._meta = { ...(entry._meta as object | undefined), [ALWAYS_LOAD]: true };
  return entry;
}
