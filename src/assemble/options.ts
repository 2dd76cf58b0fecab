import type { LoadOptions } from "../config/index.js";
import type { ElicitationHandler } from "../mcp/client/elicitation.js";
import type { McpLoginHook } from "../mcp/client/oauth/session.js";
import type { ProgressFactory } from "../util/progress.js";

/** What `Toolplane.open()` takes: where and for whom to assemble, besides the configuration. */
export interface ToolplaneOptions extends LoadOptions {
  /** Scope chain, nearest first, e.g. "session-1>agent:reviewer". */
  scope?: string;
  /** Where problems for people go (a failed MCP server, ...); silent when unset. */
  log?: (line: string) => void;
  /** The bundled skills root; null for none (tests). Defaults to the package's `skills` folder. */
  bundledSkills?: string | null;
  /** Names this session's spill directory (default: random). */
  session?: string;
  /** Progress of long scans, for people; silent by default (see util/progress). */
  progress?: ProgressFactory;
  /**
   * Which servers of `mcp.servers` this plane connects (default: all). `toolplane call` connects
   * only the server its tool's name points at, so a call of a built-in never waits for one.
   */
  mcpServers?: (server: string) => boolean;
  /**
   * Sends a person to an MCP server's authorization page (OAuth). Without it, a server that needs a
   * login the stored ones cannot give is left out with `MCP server "x" needs login: toolplane mcp
   * login x`; stored logins are used and refreshed either way.
   */
  mcpLogin?: McpLoginHook;
  /**
   * Answers MCP servers' `elicitation/create` requests (a form for the person). Without it, the
   * client does not offer elicitation to servers.
   */
  onElicitation?: ElicitationHandler;
}
