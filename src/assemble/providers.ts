// What a Toolplane registers at open: the built-in tools (with the skill tool), the example
// integration, tool modules, scope restrictions and the MCP servers of the configuration.

import type { Config } from "../config/index.js";
import type { ServedEntries } from "../declare/served.js";
import type { AnyTool } from "../declare/types.js";
import type { Skill, SkillsView } from "../discover/index.js";
import { type McpClients, registerMcpServers } from "../mcp/client/index.js";
import type { McpServerConfig } from "../mcp/config.js";
import { GLOBAL_LAYER, type Registry, type Restrictions } from "../register/index.js";
import { builtinProvider } from "../tools/index.js";
import { skillTool } from "../tools/skill/tool.js";
import { loadToolModules, type ToolModuleSpec } from "./modules.js";
import type { ToolplaneOptions } from "./options.js";

/** The parts of a Toolplane that open() fills (structural: the plane imports this file). */
export interface Registrable {
  readonly tools: Registry<AnyTool>;
  readonly skills: Registry<Skill>;
  readonly config: Config;
  skillsView(): Promise<SkillsView>;
  mcp: McpClients | undefined;
}

const EMPTY: ServedEntries = { prompts: [], resources: [], templates: [] };
/** By plane: the prompts and resources its tools modules export (for `toolplane serve`). */
const servedByPlane = new WeakMap<object, ServedEntries>();

/** The prompts and resources the plane's tools modules export; a session or scope view reads its plane's. */
export function servedEntries(plane: object): ServedEntries {
  // views are prototype views of their plane (views.ts)
  for (let p: object | null = plane; p !== null; p = Object.getPrototypeOf(p)) {
    const found = servedByPlane.get(p);
    if (found) return found;
  }
  return EMPTY;
}

export async function registerProviders(plane: Registrable, options: ToolplaneOptions): Promise<void> {
  const builtin = options.progress ? { progress: options.progress } : {};
  plane.tools.register(GLOBAL_LAYER, builtinProvider([skillTool(() => plane.skillsView())], builtin));
  // the example is declared with Zod, as a user's tool would be: loaded only when it is wanted
  if (plane.config.get("tools.examples") as boolean) {
    const { ticketProvider } = await import("../examples/ticket-status/index.js");
    plane.tools.register(GLOBAL_LAYER, ticketProvider());
  }
  const modules = await loadToolModules(
    plane.config.get("tools.modules") as ToolModuleSpec[],
    plane.config.projectRoot,
    // assembly keys only: a run-time key written into a description would change the request
    // (and break the prompt cache) when the key changes, and run-time keys never enter a request
    plane.config.ofKind("assembly"),
    plane.config.get("tools.providerTimeoutMs") as number,
  );
  for (const m of modules) plane.tools.register(m.layer, m.provider);
  servedByPlane.set(plane, mergeServed(modules, options.log));
  const restrictions = plane.config.get("scopes.restrictions") as Record<string, Restrictions>;
  for (const [layer, r] of Object.entries(restrictions)) {
    plane.tools.restrict(layer, r);
    plane.skills.restrict(layer, r);
  }
  const configured = plane.config.get("mcp.servers") as Record<string, McpServerConfig>;
  const wanted = options.mcpServers;
  const servers = wanted
    ? Object.fromEntries(Object.entries(configured).filter(([name]) => wanted(name)))
    : configured;
  plane.mcp = registerMcpServers(plane.tools, servers, options.log ? { log: options.log } : {});
}

/** Every module's prompts and resources, in module order; a module whose declarations failed is named in the log. */
function mergeServed(
  modules: ReadonlyArray<{ served?: ServedEntries | { problem: string } }>,
  log: ((line: string) => void) | undefined,
): ServedEntries {
  const out = { prompts: [], resources: [], templates: [] } as {
    [K in keyof ServedEntries]: Array<ServedEntries[K][number]>;
  };
  for (const { served } of modules) {
    if (!served) continue;
    if ("problem" in served) {
      log?.(served.problem);
      continue;
    }
    out.prompts.push(...served.prompts);
    out.resources.push(...served.resources);
    out.templates.push(...served.templates);
  }
  return out;
}
