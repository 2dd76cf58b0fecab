import path from "node:path";
import { pathToFileURL } from "node:url";
import { defineTool } from "../declare/define-tool.js";
import { type ServedEntries, servedOf } from "../declare/served.js";
import type { AnyTool, ToolDeclaration } from "../declare/types.js";
import { GLOBAL_LAYER, MalformedEntryError, type Provider } from "../register/index.js";
import { withDeadline } from "../util/deadline.js";
import { importModule } from "../util/import-module.js";

/** One `tools.modules` item as written in config. */
export type ToolModuleSpec = string | { path: string; layer?: string };

export interface LoadedModule {
  layer: string;
  provider: Provider<AnyTool>;
  /** Its `prompts` and `resources` exports (for `toolplane serve`), or why they were not usable. */
  served?: ServedEntries | { problem: string };
}

/**
 * Loads the project's tool modules (config `tools.modules`), each one provider named
 * `module:<path>`. A module exports `tools` (an array, or a function of `{config}` returning one),
 * a default array, or `provider()` returning a registry provider (for lists that change). Raw
 * declarations go through defineTool.
 *
 * A module that fails (cannot be imported, exports nothing usable, holds a bad declaration) does
 * not stop assembly: its provider is still registered and reports the failure on every read
 * (rejected, or malformed for a bad declaration), so the catalog names it and the rest work.
 */
export async function loadToolModules(
  specs: readonly ToolModuleSpec[],
  projectRoot: string,
  config: Readonly<Record<string, unknown>>,
  timeoutMs: number,
): Promise<LoadedModule[]> {
  const loaded: LoadedModule[] = [];
  for (const spec of specs) {
    const rel = typeof spec === "string" ? spec : spec.path;
    const name = `module:${rel}`;
    const file = path.resolve(projectRoot, rel);
    const specLayer = typeof spec === "object" ? spec.layer : undefined;
    let mod: Record<string, unknown>;
    try {
      // a module whose top-level await never settles would otherwise hold assembly forever, or let
      // the process end with exit 0 and no output once nothing else is pending
      mod = (await withDeadline(
        importModule(pathToFileURL(file).href),
        timeoutMs,
        `did not finish loading within ${timeoutMs} ms (tools.providerTimeoutMs)`,
        { keepAlive: true },
      )) as Record<string, unknown>;
    } catch (error) {
      const reason = `tools.modules: cannot load "${rel}" (${file}): ${(error as Error).message}; fix the path or the module`;
      loaded.push({ layer: specLayer || GLOBAL_LAYER, provider: failing(name, reason) });
      continue;
    }
    const layer = specLayer || (typeof mod.layer === "string" ? mod.layer : GLOBAL_LAYER);
    const served = servedOrProblem(mod, rel);
    try {
      loaded.push({ layer, provider: await moduleProvider(mod, name, rel, config, timeoutMs), served });
    } catch (error) {
      loaded.push({ layer, provider: failing(name, (error as Error).message, error), served });
    }
  }
  return loaded;
}

/** A bad prompt or resource declaration costs its module's prompts and resources, never its tools. */
function servedOrProblem(mod: Record<string, unknown>, rel: string): LoadedModule["served"] {
  try {
    return servedOf(mod, rel);
  } catch (error) {
    return { problem: `tools.modules: "${rel}": ${(error as Error).message}` };
  }
}

async function moduleProvider(
  mod: Record<string, unknown>,
  name: string,
  rel: string,
  config: Readonly<Record<string, unknown>>,
  timeoutMs: number,
): Promise<Provider<AnyTool>> {
  if (typeof mod.provider === "function") {
    const inner = (mod.provider as () => Provider<unknown>)();
    if (!inner || typeof inner.enumerate !== "function")
      throw new Error(`tools.modules: "${rel}": provider() must return { enumerate(signal), rank? }`);
    return {
      name,
      ...(inner.rank !== undefined ? { rank: inner.rank } : {}),
      enumerate: async (signal) => {
        const result = await inner.enumerate(signal);
        const list = Array.isArray(result) ? result : (result as { entries?: unknown })?.entries;
        if (!Array.isArray(list))
          throw new MalformedEntryError(
            name,
            "",
            "provider().enumerate() must return a list of tools or { entries }",
          );
        const tools = list.map((t) => asTool(t, name));
        return Array.isArray(result) ? tools : { ...(result as object), entries: tools };
      },
    };
  }
  const exported = mod.tools ?? mod.default;
  const list =
    typeof exported === "function"
      ? await withDeadline(
          Promise.resolve((exported as (c: unknown) => unknown)({ config })),
          timeoutMs,
          `tools.modules: "${rel}": tools({config}) did not return within ${timeoutMs} ms (tools.providerTimeoutMs)`,
          { keepAlive: true },
        )
      : exported;
  if (!Array.isArray(list)) {
    throw new Error(
      `tools.modules: "${rel}" exports no tools; export \`tools\` (an array or a function of {config}), a default array, or \`provider()\``,
    );
  }
  const tools = list.map((t) => asTool(t, name));
  return { name, enumerate: () => tools };
}

/** A module that could not be used: every read reports why (a bad declaration as malformed). */
function failing(name: string, reason: string, cause?: unknown): Provider<AnyTool> {
  return {
    name,
    enumerate: () => {
      if (cause instanceof MalformedEntryError) throw cause;
      throw new Error(reason);
    },
  };
}

function asTool(value: unknown, provider: string): AnyTool {
  if (value && typeof value === "object" && (value as { kind?: unknown }).kind === "tool")
    return value as AnyTool;
  try {
    return defineTool(value as ToolDeclaration) as AnyTool;
  } catch (error) {
    const name = (value as { name?: unknown })?.name;
    throw new MalformedEntryError(provider, typeof name === "string" ? name : "?", (error as Error).message);
  }
}
