import type { Config } from "../config/index.js";
import { projectTool, type ToolProjection } from "../declare/project.js";
import type { AnyTool } from "../declare/types.js";
import {
  ANTHROPIC_TOOL_SEARCH_BETA,
  clientSearchTool,
  hasNativeToolSearch,
  type NativeSearchBy,
  nativeSearchTool,
  TOOL_SEARCH_NAME,
} from "../defer/index.js";
import {
  type BudgetSettings,
  type Catalog,
  CatalogRenderer,
  type CatalogTool,
  type DeferralReport,
  mcpToolExtras,
  type NativeDeferral,
  type ProviderName,
  RenderMemo,
  renderTool,
  type ServerInstructions,
  type VolatilePlacement,
} from "../render/index.js";
import type { SessionPlan } from "./deferral.js";

/** The catalog budget from the assembly keys. */
export function budgetFrom(config: Pick<Config, "get">): BudgetSettings {
  return {
    chars: config.get("catalog.budget.chars") as number,
    tokens: config.get("catalog.budget.tokens") as number | null,
    descriptionMaxChars: config.get("catalog.descriptionMaxChars") as number,
  };
}

/** The assembly keys a catalog reads beside the plan and the tools. */
export function catalogKeys(
  config: Pick<Config, "get">,
): Pick<CatalogRequest, "budget" | "nativeWanted" | "nativeSearch" | "volatile"> {
  return {
    budget: budgetFrom(config),
    nativeWanted: config.get("defer.native") as boolean,
    nativeSearch: config.get("defer.nativeSearch") as NativeSearchBy,
    volatile: config.get("catalog.volatile") as VolatilePlacement,
  };
}

export interface CatalogRequest {
  provider: ProviderName;
  /** This session's residency plan for the visible tools. */
  planned: SessionPlan;
  /** The tools of `planned.plan.resident`, in its order. */
  residentTools: readonly AnyTool[];
  /** The tools of `planned.plan.deferred`, in its order (read for the provider's native search only). */
  deferredTools: () => readonly AnyTool[];
  skills: { name: string; description: string }[];
  budget: BudgetSettings;
  /** `defer.native`: use the provider's own tool search where it has one. */
  nativeWanted: boolean;
  /** `defer.nativeSearch`: in the native form, the provider's search tool or toolplane's run by the client. */
  nativeSearch: NativeSearchBy;
  incomplete: boolean;
  /** `catalog.volatile`: where the skill listing, deferred names and instructions go. */
  volatile: VolatilePlacement;
  /** Connected MCP servers' instructions. */
  instructions: ServerInstructions[];
}

/**
 * Turns a session's plan into what the model sees, per provider. It keeps what makes re-renders
 * cheap: one render memo for all providers, one incremental renderer per provider, and each
 * tool's projection (tools are immutable, so each one is projected, and deep-copied, once).
 */
export class CatalogAssembler {
  private readonly memo = new RenderMemo();
  private readonly renderers = new Map<ProviderName, CatalogRenderer>();
  private readonly projections = new WeakMap<AnyTool, ToolProjection>();
  private readonly lastProjected = new Map<ProviderName, Projected>();
  private readonly mcpExtras = new WeakMap<AnyTool, ReturnType<typeof mcpToolExtras>>();
  private lastDeferred: Projected | undefined;

  /**
   * Deferred tools go to the system text by name only, with tool_search resident (or, where the
   * provider has a native form and it is wanted, in full with `defer_loading` behind the
   * provider's own search tool); tools tool_search loaded follow the resident ones, so the tools
   * before them do not move. Only tools sent in full are projected: a deferred tool's schema is
   * never built for the names form.
   */
  render(req: CatalogRequest): { catalog: Catalog; form: DeferralReport["form"]; trigger: string } {
    const { plan, trigger } = req.planned;
    const native = plan.deferred.length > 0 && req.nativeWanted && hasNativeToolSearch(req.provider);
    const resident = native
      ? req.residentTools.filter((t) => t.name !== TOOL_SEARCH_NAME)
      : req.residentTools;
    const tools = this.projectAll(req.provider, resident);
    let renderer = this.renderers.get(req.provider);
    if (!renderer) {
      renderer = new CatalogRenderer(this.memo);
      this.renderers.set(req.provider, renderer);
    }
    const catalog = renderer.render({
      provider: req.provider,
      tools,
      skills: req.skills,
      ...(native
        ? {
            native: nativeDeferral(
              req.provider,
              this.deferredProjections(req.deferredTools()),
              req.nativeSearch === "toolplane" ? this.clientSearch(req) : undefined,
            ),
          }
        : { deferred: plan.deferred }),
      budget: req.budget,
      incomplete: req.incomplete,
      volatile: req.volatile,
      instructions: req.instructions,
    });
    const form: DeferralReport["form"] = plan.deferred.length === 0 ? "none" : native ? "native" : "names";
    // the caller records the form with the session's deferral and adds its report: the way runs
    // one direction, from the plan to the rendering
    if (req.provider !== "mcp") return { catalog, form, trigger };
    return {
      catalog: { ...catalog, tools: this.withMcpExtras(catalog, resident) as CatalogTool[] },
      form,
      trigger,
    };
  }

  /**
   * MCP entries with `outputSchema` and `annotations` (what `toolplane serve` lists). They follow
   * the rendered entry and are outside the budget and prefixHash: an MCP client turns the list
   * into its own model's request, and neither is part of what that model reads.
   */
  private withMcpExtras(catalog: Catalog, tools: readonly AnyTool[]): unknown[] {
    const wireNames = new Map(catalog.report.renamed.map((r) => [r.name, r.wireName]));
    const byWire = new Map(tools.map((t) => [wireNames.get(t.name) ?? t.name, t]));
    return catalog.tools.map((wire) => {
      const tool = byWire.get((wire as { name: string }).name);
      if (!tool) return wire;
      let extras = this.mcpExtras.get(tool);
      if (!extras) {
        extras = mcpToolExtras(tool);
        this.mcpExtras.set(tool, extras);
      }
      return { ...(wire as object), ...extras };
    });
  }

  /**
   * The projections of a list of tools, in order. Against the last list this provider rendered,
   * only the tools that are not the ones at the same place are looked up: a tool changed in
   * place costs its own projection and a walk of pointers.
   */
  private projectAll(provider: ProviderName, tools: readonly AnyTool[]): ToolProjection[] {
    const next = this.patchProjections(this.lastProjected.get(provider), tools);
    this.lastProjected.set(provider, next);
    return next.projections;
  }

  /** toolplane's tool_search as the provider's client-run search (its schema as every tool's is rendered). */
  private clientSearch(req: CatalogRequest): Record<string, unknown> {
    const search = req.residentTools.find((t) => t.name === TOOL_SEARCH_NAME);
    if (search === undefined) throw new Error("internal: a native plan without tool_search");
    const { input_schema } = renderTool("anthropic", this.projection(search)) as { input_schema: unknown };
    return clientSearchTool(req.provider, input_schema)!;
  }

  /**
   * The deferred tools' projections for the provider's native search, against the last list:
   * only tools not at the same place are looked up, so an unchanged turn does not project
   * thousands of deferred tools again.
   */
  private deferredProjections(tools: readonly AnyTool[]): ToolProjection[] {
    this.lastDeferred = this.patchProjections(this.lastDeferred, tools);
    return this.lastDeferred.projections;
  }

  /** Projections of `tools`, reusing the last list's where the tool at a place is the same. */
  private patchProjections(last: Projected | undefined, tools: readonly AnyTool[]): Projected {
    if (last?.tools === tools) return last;
    if (last && last.tools.length === tools.length) {
      const out = last.projections.slice();
      for (let i = 0; i < tools.length; i++)
        if (tools[i] !== last.tools[i]) out[i] = this.projection(tools[i]!);
      return { tools, projections: out };
    }
    return { tools, projections: tools.map((t) => this.projection(t)) };
  }

  private projection(tool: AnyTool): ToolProjection {
    let p = this.projections.get(tool);
    if (!p) {
      p = projectTool(tool);
      this.projections.set(tool, p);
    }
    return p;
  }
}

/** A list of tools and their projections, in order. */
interface Projected {
  tools: readonly AnyTool[];
  projections: ToolProjection[];
}

/**
 * The search tool and the deferred tools it loads (Anthropic, OpenAI Responses): the provider's own
 * search tool, or `clientSearch` (toolplane's, run by the client).
 */
function nativeDeferral(
  provider: ProviderName,
  tools: ToolProjection[],
  clientSearch?: Record<string, unknown>,
): NativeDeferral {
  const searchTool = clientSearch ?? nativeSearchTool(provider)!;
  return provider === "anthropic"
    ? { tools, searchTool, headers: { "anthropic-beta": ANTHROPIC_TOOL_SEARCH_BETA } }
    : { tools, searchTool };
}
