import type { LoadOptions } from "../config/index.js";
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
}
