import { toMcp } from "../schema/mcp.js";
import { NAME_RULES } from "../schema/names.js";
import type { ProviderAdapter } from "../types.js";

/** MCP `tools/list` entries: `{name, description, inputSchema}`. */
export const mcp: ProviderAdapter = {
  name: "mcp",
  nameRule: NAME_RULES.mcp,
  convert: toMcp,
  wire: ({ name, description, converted }) => ({ name, description, inputSchema: converted.schema }),
};
