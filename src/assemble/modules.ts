import path from "node:path";
import { pathToFileURL } from "node:url";
import { defineTool } from "../declare/define-tool.js";
import type { AnyTool, ToolDeclaration } from "../declare/types.js";
import { GLOBAL_LAYER, type Provider } from "../register/index.js";

/** One `tools.modules` item as written in config. */
export type ToolModuleSpec = string | { path: string; layer?: string };

export interface LoadedModule {
  layer: string;
  provider: Provider<AnyTool>;
}

/**
 * Loads the project's tool modules (config `tools.modules`), each one provider named
 * `module:<path>`. A module exports `tools` (an array, or a function of `{config}` returning one),
 * a default array, or `provider()` returning a registry provider (for lists that change). Raw
 * declarations go through defineTool, so a bad one fails here with the module's name.
 */
export async function loadToolModules(
  specs: readonly ToolModuleSpec[],
  projectRoot: string,
  config: Readonly<Record<string, unknown>>,
): Promise<LoadedModule[]> {
  const loaded: LoadedModule[] = [];
  for (const spec of specs) {
    const rel = typeof spec === "string" ? spec : spec.path;
    const file = path.resolve(projectRoot, rel);
    let mod: Record<string, unknown>;
    try {
      mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch (error) {
      throw new Error(
        `tools.modules: cannot load "${rel}" (${file}): ${(error as Error).message}; fix the path or the module`,
      );
    }
    const layer =
      (typeof spec === "object" && spec.layer) || (typeof mod.layer === "string" ? mod.layer : GLOBAL_LAYER);
    const name = `module:${rel}`;
    if (typeof mod.provider === "function") {
      const inner = (mod.provider as () => Provider<unknown>)();
      loaded.push({
        layer,
        provider: {
          name,
          ...(inner.rank !== undefined ? { rank: inner.rank } : {}),
          enumerate: async (signal) => {
            const result = await inner.enumerate(signal);
            const list = Array.isArray(result) ? result : (result as { entries: unknown[] }).entries;
            const tools = list.map((t) => asTool(t, rel));
            return Array.isArray(result) ? tools : { ...(result as object), entries: tools };
          },
        },
      });
      continue;
    }
    const exported = mod.tools ?? mod.default;
    const list =
      typeof exported === "function" ? await (exported as (c: unknown) => unknown)({ config }) : exported;
    if (!Array.isArray(list)) {
      throw new Error(
        `tools.modules: "${rel}" exports no tools; export \`tools\` (an array or a function of {config}), a default array, or \`provider()\``,
      );
    }
    const tools = list.map((t) => asTool(t, rel));
    loaded.push({ layer, provider: { name, enumerate: () => tools } });
  }
  return loaded;
}

function asTool(value: unknown, rel: string): AnyTool {
  if (value && typeof value === "object" && (value as { kind?: unknown }).kind === "tool")
    return value as AnyTool;
  try {
    return defineTool(value as ToolDeclaration) as AnyTool;
  } catch (error) {
    throw new Error(`tools.modules: "${rel}": ${(error as Error).message}`);
  }
}
