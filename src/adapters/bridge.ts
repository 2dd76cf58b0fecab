import type { HostRequest, Toolplane } from "../assemble/toolplane.js";
import type { JsonSchema, ModelContent } from "../declare/types.js";
import {
  ANTHROPIC_TOOL_SEARCH,
  OPENAI_RESPONSES_TOOL_SEARCH,
  TOOL_SEARCH_NAME,
  type ToolSearchResult,
} from "../defer/index.js";
import type { ToolCall, ToolResult } from "../execute/index.js";
import {
  attachmentsText,
  type Catalog,
  DEFERRED_HEADER,
  type ProviderName,
  restoreCall,
} from "../render/index.js";

/**
 * Renderings an SDK tool can be built from: each has a name, a description and a JSON Schema.
 * `mcp` is the names form always (MCP has no native deferral): the Claude Agent SDK's in-process
 * server lists it.
 */
export type BridgeProvider = "openai-chat" | "openai-responses" | "anthropic" | "mcp";

export interface BridgeOptions extends HostRequest {
  /**
   * Which toolplane rendering the SDK tools take their name, description (after the catalog
   * budget) and schema from. OpenAI renderings are strict-mode schemas; `anthropic` keeps
   * optional properties optional. With `defer.native` (the default) and something deferred,
   * `anthropic` and `openai-responses` use the provider's own tool search.
   */
  provider?: BridgeProvider;
}

/** One tool as an SDK sees it, with a call that goes through the toolplane host. */
export interface BridgedTool {
  /** The name the model calls (the provider's wire name). */
  name: string;
  /** The toolplane tool it runs. */
  tool: string;
  description: string;
  parameters: JsonSchema;
  /** True when `parameters` is an OpenAI strict-mode schema. */
  strict: boolean;
  /** Native form: sent marked `defer_loading`, loaded by the provider's own search. */
  deferLoading: boolean;
  /** The catalog's wire entry itself (an MCP entry keeps its `annotations` and `outputSchema`). */
  wire: Readonly<Record<string, unknown>>;
  /**
   * toolplane's tool_search as Anthropic's client-run search (`defer.nativeSearch: "toolplane"`):
   * its result must carry a `tool_reference` block per tool found (see searchReferences).
   */
  references: boolean;
  call(args: unknown, run?: { id?: string; signal?: AbortSignal }): Promise<ToolResult>;
}

export interface Bridge {
  /** The tools the model sees: resident ones, tool_search and loaded ones; in the native form also the deferred ones, marked. */
  tools: BridgedTool[];
  /**
   * Names form: deferred tools listed by name only, not loaded yet. An SDK keeps them callable
   * but unsent, so a model that skips tool_search gets the host's answer (search first) instead
   * of an unknown-tool failure.
   */
  unloaded: BridgedTool[];
  /**
   * Native form: the search tool that is not a plain tool, as the catalog renders it: the provider's
   * own, or OpenAI's `tool_search` with `execution: "client"` (toolplane's search answers it).
   */
  nativeSearch?: Record<string, unknown>;
  /** The rendering the tools came from: prefixHash, budget cuts, renamed tools, attachments. */
  catalog: Catalog;
  /**
   * A call by the name the model used, for an SDK that hands the adapter a name instead of a tool
   * object (LangChain's middleware, an MCP tools/call): the host answers the name as this catalog
   * showed it (a renamed or unloaded tool, an unknown or withheld name, a denied call).
   */
  callByName(name: string, args: unknown, run?: { id?: string; signal?: AbortSignal }): Promise<ToolResult>;
}

/**
 * The plane's volatile context for one turn, as one message text: the catalog's attachments (the
 * skill listing, the deferred names, MCP servers' instructions) under `catalog.volatile:
 * "attachments"`; "" when there are none. An SDK owns its request, so the harness sends this as a
 * message after its cached prefix, read again each turn (a tool_search load changes the names).
 */
export async function attachmentMessageText(plane: Toolplane, options: BridgeOptions = {}): Promise<string> {
  const catalog = await plane.catalog(options.provider ?? "openai-chat");
  return attachmentsText(catalog.attachments);
}

const PROVIDERS: readonly string[] = ["openai-chat", "openai-responses", "anthropic", "mcp"];

/**
 * The snapshot's model-visible tools as rendered for `provider`, each with a call that runs
 * through `plane.host()`: argument validation, permissions, timeouts, result limits and spill.
 * The SDK adapters are thin wrappers over this.
 */
export async function bridgeTools(plane: Toolplane, options: BridgeOptions = {}): Promise<Bridge> {
  const provider = options.provider ?? "openai-chat";
  if (!PROVIDERS.includes(provider)) {
    throw new Error(
      `cannot build SDK tools from the "${provider}" rendering: use openai-chat, openai-responses, anthropic or mcp`,
    );
  }
  const catalog = await plane.catalog(provider as ProviderName);
  // everything of the host's request (ask, onDecision, log, hooks, onHook) goes to the host as given;
  // the host answers for this catalog: its renamed tools, its deferral form, strict-mode nulls
  const { provider: _provider, ...rest } = options;
  const request: HostRequest = { ...rest, provider: provider as ProviderName };
  const host = plane.host(request);
  const runOf = (call: ToolCall, run: { id?: string; signal?: AbortSignal }) =>
    host.call(run.id ? { ...call, id: run.id } : call, run.signal ? { signal: run.signal } : {});
  const bridged = (parts: WireParts): BridgedTool => ({
    ...parts,
    tool: restoreCall(catalog, parts.name, {}).name,
    // the model's call goes to the host as the model made it: the host restores it
    call: (args, run = {}) => runOf({ tool: parts.name, args }, run),
  });
  const tools: BridgedTool[] = [];
  let nativeSearch: Record<string, unknown> | undefined;
  const listing = deferredListing(catalog);
  const native = catalog.report.deferral?.form === "native";
  for (const wire of catalog.tools) {
    const parts = wireParts(provider as BridgeProvider, wire, native);
    if (parts === undefined) {
      nativeSearch = wire as Record<string, unknown>;
      continue;
    }
    // the SDK owns the system text, so under catalog.volatile=system the names-only listing
    // travels in tool_search's description (under attachments it is in attachmentMessageText)
    if (parts.name === TOOL_SEARCH_NAME && listing) parts.description = `${parts.description}\n\n${listing}`;
    tools.push(bridged(parts));
  }
  // names form: every deferred tool not loaded yet (those the budget left out of the listing too);
  // empty in the native form, where the provider loads them. Each is called by its toolplane
  // name, the one the listing shows, and the host answers it
  const sent = new Set(tools.map((t) => t.name));
  const unloaded = [...plane.deferral.unloaded(provider as ProviderName)]
    .filter((name) => !sent.has(name))
    .sort()
    .map((name) =>
      bridged({
        name,
        description: "",
        parameters: { type: "object" },
        strict: false,
        deferLoading: false,
        wire: {},
        references: false,
      }),
    );
  // the host answers any name as this catalog showed it (renamed, unloaded, unknown, withheld)
  const callByName: Bridge["callByName"] = (name, args, run = {}) =>
    runOf({ tool: name, args: args ?? {} }, run);
  return { tools, unloaded, ...(nativeSearch ? { nativeSearch } : {}), catalog, callByName };
}

type WireParts = Omit<BridgedTool, "tool" | "call">;

/** A wire tool's parts; undefined for the provider's own search tool, which has no schema. */
function wireParts(provider: BridgeProvider, wire: unknown, native: boolean): WireParts | undefined {
  const w = wire as Record<string, unknown>;
  if (provider === "openai-responses" && w.type === OPENAI_RESPONSES_TOOL_SEARCH.type) return undefined;
  if (provider === "anthropic" && Object.values(ANTHROPIC_TOOL_SEARCH).some((t) => t.type === w.type))
    return undefined;
  const fn = (provider === "openai-chat" ? w.function : w) as Record<string, unknown>;
  const schemaKey =
    provider === "anthropic" ? "input_schema" : provider === "mcp" ? "inputSchema" : "parameters";
  return {
    name: fn.name as string,
    description: (fn.description as string | undefined) ?? "",
    parameters: fn[schemaKey] as JsonSchema,
    strict: fn.strict === true,
    deferLoading: w.defer_loading === true,
    wire: w,
    // in Anthropic's native form a tool_search that is a plain tool is toolplane's, client-run
    references: native && provider === "anthropic" && fn.name === TOOL_SEARCH_NAME,
  };
}

/**
 * The wire names of the tools a tool_search result found (every hit is loaded), for the provider's
 * client-run search: Anthropic's `tool_reference` blocks, OpenAI's `tool_search_output` tools.
 * Empty for a failed search.
 */
export function searchReferences(catalog: Catalog, result: ToolResult): string[] {
  if (result.isError || result.tool !== TOOL_SEARCH_NAME) return [];
  const found = (result.value as ToolSearchResult | undefined)?.results ?? [];
  const wireNames = new Map(catalog.report.renamed.map((r) => [r.name, r.wireName]));
  return found.map((r) => wireNames.get(r.name) ?? r.name);
}

/** The system text's names-only section (it is always the last), or "" when nothing is listed. */
function deferredListing(catalog: Catalog): string {
  const at = catalog.system.indexOf(DEFERRED_HEADER);
  return at < 0 ? "" : catalog.system.slice(at);
}

/** Unsubscribes a collected target's listener (see liveBridge). */
const unsubscribeWhenCollected = new FinalizationRegistry<() => void>((off) => off());

/**
 * Keeps `target` (an SDK's tool set) following the plane: when tool_search loads a tool (or the
 * registry changes), the bridge is rebuilt and `apply(target, bridge)` brings the target to it.
 * `settled()` resolves once the rebuild a change started has been applied; the adapters await it
 * before handing a result back, so the SDK's next step (which reads the tool set again) already
 * has the loaded tools. The target is held weakly (`apply` must not capture it): a harness that
 * builds a new set every turn leaves no old one listening.
 */
export async function liveBridge<T extends object>(
  plane: Toolplane,
  options: BridgeOptions,
  target: T,
  apply: (target: T, bridge: Bridge) => void,
): Promise<{ settled(): Promise<void> }> {
  apply(target, await bridgeTools(plane, options));
  const ref = new WeakRef(target);
  let pending: Promise<void> = Promise.resolve();
  let stale = false;
  const off = plane.onToolsChanged(() => {
    if (stale) return;
    if (ref.deref() === undefined) return off();
    stale = true;
    // after the current call returns to the host: the listener fires inside tool_search's execute
    pending = pending.then(async () => {
      stale = false;
      try {
        const bridge = await bridgeTools(plane, options);
        const live = ref.deref();
        if (live !== undefined) apply(live, bridge);
        else off();
      } catch (error) {
        options.log?.(`toolplane: could not refresh the SDK tools: ${(error as Error).message}`);
      }
    });
  });
  unsubscribeWhenCollected.register(target, off);
  return { settled: () => pending };
}

/**
 * An adapter's SDK tools by name: a tool is made again only when its rendering changed (an SDK
 * tool built from one bridging serves the next), and names the bridge no longer has are dropped.
 */
export class BuiltTools<T> {
  private readonly byName = new Map<string, { from: BridgedTool; made: T }>();
  constructor(private readonly make: (t: BridgedTool) => T) {}

  get(t: BridgedTool): T {
    const hit = this.byName.get(t.name);
    if (hit && sameRendering(hit.from, t)) return hit.made;
    const made = this.make(t);
    this.byName.set(t.name, { from: t, made });
    return made;
  }

  keepOnly(names: ReadonlySet<string>): void {
    for (const name of [...this.byName.keys()]) if (!names.has(name)) this.byName.delete(name);
  }
}

function sameRendering(a: BridgedTool, b: BridgedTool): boolean {
  return (
    a.description === b.description &&
    a.strict === b.strict &&
    a.deferLoading === b.deferLoading &&
    a.references === b.references &&
    a.tool === b.tool &&
    JSON.stringify(a.parameters) === JSON.stringify(b.parameters)
  );
}

/** The result's text blocks joined, as a model would read them. */
export function resultText(result: ToolResult): string {
  return result.content
    .filter((b): b is Extract<ModelContent, { type: "text" }> => b.type === "text")
    .map((b) => b.text)
    .join("\n");
}
