import { randomBytes } from "node:crypto";
import path from "node:path";
import { ticketProvider } from "../../examples/ticket-status/index.js";
import { type Config, type LoadOptions, loadConfig } from "../config/index.js";
import { projectTool, type ToolProjection } from "../declare/project.js";
import type { AnyTool } from "../declare/types.js";
import {
  ANTHROPIC_TOOL_SEARCH_BETA,
  deferConfigFrom,
  hasNativeToolSearch,
  nativeSearchTool,
  TOOL_SEARCH_NAME,
} from "../defer/index.js";
import {
  type Skill,
  SkillDiscovery,
  type SkillsView,
  SkillWatcher,
  type WatchOptions,
} from "../discover/index.js";
import {
  type AskCallback,
  defaultSpillBase,
  ExecutionHost,
  type HostTool,
  type HostToolSet,
  SpillStore,
  type ToolErrorCode,
  type ToolResult,
} from "../execute/index.js";
import {
  MCP_ACTIONS,
  MCP_DEFAULT_RULES,
  type McpClients,
  type McpServerConfig,
  registerMcpServers,
} from "../mcp/index.js";
import {
  deniedOutright,
  type PermissionPolicy,
  policyFromConfig,
  type SourcedRule,
} from "../permissions/index.js";
import {
  GLOBAL_LAYER,
  Registry,
  type Resolved,
  type Restrictions,
  type Snapshot,
} from "../register/index.js";
import {
  type BudgetSettings,
  type Catalog,
  CatalogRenderer,
  type DeferralReport,
  type NativeDeferral,
  type ProviderName,
  RenderMemo,
} from "../render/index.js";
import { builtinProvider } from "../tools/index.js";
import { skillTool } from "../tools/skill.js";
import type { ProgressFactory } from "../util/progress.js";
import { SessionDeferral, type VisibleTool } from "./deferral.js";
import { loadToolModules, type ToolModuleSpec } from "./modules.js";
import { parseScopeChain } from "./scope.js";

/** The built-in skill tool's name (src/tools/skill.ts). */
const SKILL_TOOL = "skill";

/** The permission namespace of tools toolplane itself adds to a session (tool_search). */
const SESSION_NAMESPACE = "toolplane";

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
}

export interface HostRequest {
  /** Decides `ask` permissions; without one every ask is denied. */
  ask?: AskCallback;
  log?: (line: string) => void;
}

/**
 * One assembled tool layer for a working directory: configuration, the tool registry with its
 * providers, and the reads a harness makes (snapshot, catalog). Stations stay independent; this
 * is the one place that wires them together.
 */
export class Toolplane {
  readonly config: Config;
  readonly tools: Registry<AnyTool>;
  /** Skills, through the same layered registry: one provider per skill root. */
  readonly skills: Registry<Skill>;
  readonly discovery: SkillDiscovery;
  readonly chain: string[];
  /** The MCP servers from `mcp.servers`, one provider each. */
  mcp: McpClients | undefined;
  /** One spill directory per session, created on the first spilled result. */
  readonly spill: SpillStore;
  /** The promise, not the watcher: calls that overlap, or a close() during start, share it. */
  private watching: Promise<SkillWatcher> | undefined;
  private readonly renderMemo = new RenderMemo();
  private readonly renderers = new Map<ProviderName, CatalogRenderer>();
  private readonly projections = new WeakMap<AnyTool, ToolProjection>();
  /** This session's deferral: what is deferred, the loaded set, and the tool_search tool. */
  readonly deferral = new SessionDeferral();
  private readonly visibleBySnapshot = new WeakMap<Snapshot<AnyTool>, VisibleTool[]>();

  private constructor(config: Config, chain: string[], options: ToolplaneOptions, session: string) {
    this.config = config;
    this.chain = chain;
    this.tools = new Registry<AnyTool>({ kind: "tool" });
    this.skills = new Registry<Skill>({ kind: "skill" });
    const discovery: ConstructorParameters<typeof SkillDiscovery>[0] = {
      cwd: config.cwd,
      paths: config.get("skills.paths") as string[],
      disabled: config.get("skills.disabled") as string[],
      registry: this.skills,
    };
    if (options.env) discovery.env = options.env;
    if (options.bundledSkills !== undefined) discovery.bundled = options.bundledSkills;
    if (options.progress) discovery.progress = options.progress;
    this.discovery = new SkillDiscovery(discovery);
    const dir = config.get("results.spillDir") as string | null;
    this.spill = new SpillStore(dir ? path.resolve(config.projectRoot, dir) : defaultSpillBase(), session);
  }

  static async open(options: ToolplaneOptions): Promise<Toolplane> {
    const session = options.session ?? `session-${randomBytes(6).toString("hex")}`;
    const plane = new Toolplane(loadConfig(options), parseScopeChain(options.scope), options, session);
    const builtin = options.progress ? { progress: options.progress } : {};
    plane.tools.register(GLOBAL_LAYER, builtinProvider([skillTool(() => plane.skillsView())], builtin));
    plane.tools.register(GLOBAL_LAYER, ticketProvider());
    const modules = await loadToolModules(
      plane.config.get("tools.modules") as ToolModuleSpec[],
      plane.config.projectRoot,
      { ...plane.config.ofKind("assembly"), ...plane.config.ofKind("run-time") },
    );
    for (const m of modules) plane.tools.register(m.layer, m.provider);
    const restrictions = plane.config.get("scopes.restrictions") as Record<string, Restrictions>;
    for (const [layer, r] of Object.entries(restrictions)) {
      plane.tools.restrict(layer, r);
      plane.skills.restrict(layer, r);
    }
    const servers = plane.config.get("mcp.servers") as Record<string, McpServerConfig>;
    plane.mcp = registerMcpServers(plane.tools, servers, options.log ? { log: options.log } : {});
    return plane;
  }

  /** The tools this scope may use: the merged snapshot minus disabled tools. */
  async toolSnapshot(): Promise<Snapshot<AnyTool>> {
    return this.tools.snapshot(this.chain);
  }

  /** The tools of this scope the model may see and call (registry tools; tool_search is apart). */
  async visibleTools(): Promise<AnyTool[]> {
    return this.visible(await this.toolSnapshot()).map((v) => v.tool);
  }

  /**
   * The snapshot's tools minus withheld ones. A snapshot is cached by the registry until it
   * changes and the configuration is fixed for this Toolplane, so the list is kept per snapshot:
   * re-renders of an unchanged set reuse it (and the deferral planner sees the same array).
   */
  private visible(snapshot: Snapshot<AnyTool>): VisibleTool[] {
    let hit = this.visibleBySnapshot.get(snapshot);
    if (!hit) {
      hit = this.filterVisible(snapshot);
      this.visibleBySnapshot.set(snapshot, hit);
    }
    return hit;
  }

  private filterVisible(snapshot: Snapshot<AnyTool>): VisibleTool[] {
    const rules = this.policy().rules;
    const out: VisibleTool[] = [];
    for (const e of snapshot.entries) {
      if (this.withheldReason(e.name, namespaceOf(e), rules) === undefined)
        out.push({ tool: e.entry, namespace: namespaceOf(e) });
    }
    return out;
  }

  /** Why a registered tool is kept from the model and from calls here (undefined: it is not). */
  withheldReasonOf(e: Resolved<AnyTool>): string | undefined {
    return this.withheldReason(e.name, namespaceOf(e), this.policy().rules);
  }

  /** Why a tool is kept from the model and from calls here: disabled, denied outright, or reserved. */
  private withheldReason(name: string, namespace: string, rules: readonly SourcedRule[]): string | undefined {
    if (name === TOOL_SEARCH_NAME && namespace !== SESSION_NAMESPACE)
      return "its name is reserved for toolplane's tool search";
    if ((this.config.get("tools.disabled") as string[]).includes(name))
      return "it is disabled (tools.disabled)";
    const denied = deniedOutright({ name, namespace }, rules);
    return denied ? `it is denied by ${denied.origin}` : undefined;
  }

  /** Why tool_search may not be used here (then nothing is deferred), or undefined. */
  private searchWithheld(rules: readonly SourcedRule[]): string | undefined {
    return this.withheldReason(TOOL_SEARCH_NAME, SESSION_NAMESPACE, rules);
  }

  /** This session's residency plan for a snapshot (the same plan every reader of it gets). */
  private async planFor(visible: readonly VisibleTool[]) {
    return this.deferral.plan(visible, await this.deferConfig(), this.searchWithheld(this.policy().rules));
  }

  /**
   * The defer.* keys, with the skill tool pinned resident while the system text lists skills: that
   * catalog tells the model to load skills with it, so deferring it would point at a tool the
   * model cannot see.
   */
  private async deferConfig() {
    const config = deferConfigFrom(this.config);
    if (config.resident.includes(SKILL_TOOL)) return config;
    const view = await this.skillsView();
    if (!view.skills.some((s) => s.modelVisible)) return config;
    return { ...config, resident: [...config.resident, SKILL_TOOL] };
  }

  /**
   * The tools the model sees in full when deferred tools are listed by name (the client-side
   * form): resident tools in plan order, tool_search when anything is deferred, then the tools
   * tool_search loaded. The MCP server lists these.
   */
  async modelTools(): Promise<AnyTool[]> {
    const visible = this.visible(await this.toolSnapshot());
    const { plan } = await this.planFor(visible);
    return plan.resident.map((n) => this.deferral.toolNamed(n));
  }

  /** Calls `listener` when the model's tool set may have changed: a registry change or a tool_search load. */
  onToolsChanged(listener: () => void): () => void {
    const offRegistry = this.tools.on("invalidated", listener);
    const offLoad = this.deferral.session.onLoad(() => listener());
    return () => {
      offRegistry();
      offLoad();
    };
  }

  /** The permission policy of this configuration (pure data; see evaluatePermission). */
  policy(): PermissionPolicy {
    const policy = policyFromConfig(this.config.values, this.config.projectRoot);
    // Destructive MCP tools ask by default; any rule of the user's about that action replaces the default.
    const userDecides = policy.rules.some((r) => r.rule.action === MCP_ACTIONS.destructive);
    if (userDecides) return policy;
    const defaults = MCP_DEFAULT_RULES.map((rule) => ({
      rule: { ...rule },
      origin: "the built-in default (destructive MCP tools ask)",
    }));
    return { ...policy, rules: [...policy.rules, ...defaults] };
  }

  /**
   * The execution host for this scope: validation, permissions, timeouts, result limits and
   * spill. Each run reads the current tool snapshot, so registry changes reach the next turn.
   */
  host(request: HostRequest = {}): ExecutionHost {
    // Deferred tools stay callable: a call names the tool, and its arguments are validated against
    // the real schema all the same (a model that guessed them gets the schema's error back).
    const tools = async (): Promise<HostToolSet> => {
      const snapshot = await this.toolSnapshot();
      const rules = this.policy().rules;
      const available: HostTool[] = [];
      const visible: VisibleTool[] = [];
      const withheld: Array<{ name: string; reason: string; code: ToolErrorCode }> = [];
      const withhold = (name: string, reason: string) => {
        const code = reason.startsWith("it is denied") ? "permission_denied" : "unknown_tool";
        withheld.push({ name, reason, code });
      };
      for (const e of snapshot.entries) {
        const reason = this.withheldReason(e.name, namespaceOf(e), rules);
        if (reason === undefined) {
          available.push({ tool: e.entry, namespace: namespaceOf(e) });
          visible.push({ tool: e.entry, namespace: namespaceOf(e) });
        } else if (e.name !== TOOL_SEARCH_NAME) withhold(e.name, reason);
      }
      const searchReason = this.searchWithheld(rules);
      if (searchReason === undefined)
        available.push({ tool: this.deferral.searchTool, namespace: SESSION_NAMESPACE });
      else withhold(TOOL_SEARCH_NAME, searchReason);
      // tool_search ranks what this session defers: plan once if no catalog has been rendered yet
      this.deferral.ensurePlanned(() => visible, await this.deferConfig(), searchReason);
      return { tools: available, withheld };
    };
    const extra = (this.config.get("permissions.additionalDirectories") as string[]).map((d) =>
      path.resolve(this.config.projectRoot, d),
    );
    return new ExecutionHost({
      tools,
      config: this.config.ofKind("run-time"),
      policy: this.policy(),
      cwd: this.config.cwd,
      workspace: this.config.projectRoot,
      extraRoots: extra,
      spill: this.spill,
      ...(request.ask ? { ask: request.ask } : {}),
      ...(request.log ? { log: request.log } : {}),
    });
  }

  /** Runs one call as the host would (a convenience over host().call()). */
  async call(
    tool: string,
    args: unknown,
    request: HostRequest & { signal?: AbortSignal } = {},
  ): Promise<ToolResult> {
    const run = request.signal ? { signal: request.signal } : {};
    return this.host(request).call({ tool, args }, run);
  }

  /** Discovered skills for this scope: winners with visibility, shadowed, problems. */
  async skillsView(): Promise<SkillsView> {
    return this.discovery.view(this.chain);
  }

  /** Starts watching the skill roots (once); close() stops it. */
  watchSkills(options: WatchOptions = {}): Promise<SkillWatcher> {
    if (!this.watching) {
      const watching = SkillWatcher.start(this.discovery, {
        auditIntervalMs: this.config.get("skills.auditIntervalMs") as number,
        ...options,
      });
      this.watching = watching;
      // a failed start may be tried again
      watching.catch(() => {
        if (this.watching === watching) this.watching = undefined;
      });
    }
    return this.watching;
  }

  /**
   * What the model sees for `provider`. Deferral is planned for this session (`defer.*`): deferred
   * tools go to the system text by name only, with tool_search resident (or, where the provider
   * has a native form and `defer.native` is on, in full with `defer_loading` behind the provider's
   * own search tool); tools tool_search loaded follow the resident ones, so the tools before them
   * do not move. Only tools sent in full are projected: a deferred tool's schema is never built
   * for the names form.
   */
  async catalog(provider: ProviderName): Promise<Catalog> {
    const snapshot = await this.toolSnapshot();
    const visible = this.visible(snapshot);
    const { plan, trigger } = await this.planFor(visible);
    const toolNamed = (n: string) => this.deferral.toolNamed(n);
    const native =
      plan.deferred.length > 0 &&
      (this.config.get("defer.native") as boolean) &&
      hasNativeToolSearch(provider);
    const resident = native ? plan.resident.filter((n) => n !== TOOL_SEARCH_NAME) : plan.resident;
    const tools = resident.map((n) => this.projection(toolNamed(n)));
    const view = await this.skillsView();
    const skills = view.skills
      .filter((s) => s.modelVisible)
      .map((s) => ({ name: s.name, description: s.description }));
    let renderer = this.renderers.get(provider);
    if (!renderer) {
      renderer = new CatalogRenderer(this.renderMemo);
      this.renderers.set(provider, renderer);
    }
    const catalog = renderer.render({
      provider,
      tools,
      skills,
      ...(native
        ? {
            native: nativeDeferral(
              provider,
              plan.deferred.map((n) => this.projection(toolNamed(n))),
            ),
          }
        : { deferred: plan.deferred }),
      budget: this.budget(),
      incomplete: snapshot.incomplete || view.incomplete,
    });
    const form: DeferralReport["form"] = plan.deferred.length === 0 ? "none" : native ? "native" : "names";
    // a new report object: the renderer keeps its own catalog for the next incremental render
    return { ...catalog, report: { ...catalog.report, deferral: this.deferral.report(form, trigger) } };
  }

  /** The catalog budget from the assembly keys. */
  budget(): BudgetSettings {
    return {
      chars: this.config.get("catalog.budget.chars") as number,
      tokens: this.config.get("catalog.budget.tokens") as number | null,
      descriptionMaxChars: this.config.get("catalog.descriptionMaxChars") as number,
    };
  }

  /** Tools are immutable, so each one is projected (and deep-copied) once. */
  private projection(tool: AnyTool): ToolProjection {
    let p = this.projections.get(tool);
    if (!p) {
      p = projectTool(tool);
      this.projections.set(tool, p);
    }
    return p;
  }

  async close(): Promise<void> {
    await this.mcp?.close();
    const watching = this.watching;
    this.watching = undefined;
    await (await watching?.catch(() => undefined))?.close();
    this.discovery.close();
  }
}

/** The provider's own search tool and the deferred tools it loads (Anthropic, OpenAI Responses). */
function nativeDeferral(provider: ProviderName, tools: ToolProjection[]): NativeDeferral {
  const searchTool = nativeSearchTool(provider)!;
  return provider === "anthropic"
    ? { tools, searchTool, headers: { "anthropic-beta": ANTHROPIC_TOOL_SEARCH_BETA } }
    : { tools, searchTool };
}

function namespaceOf(e: Resolved<AnyTool>): string {
  return e.entry.host.namespace ?? e.namespace;
}
