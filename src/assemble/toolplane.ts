import { randomBytes } from "node:crypto";
import path from "node:path";
import { ticketProvider } from "../../examples/ticket-status/index.js";
import { type Config, type LoadOptions, loadConfig } from "../config/index.js";
import { projectTool, type ToolProjection } from "../declare/project.js";
import type { AnyTool } from "../declare/types.js";
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
import { deniedOutright, type PermissionPolicy, policyFromConfig } from "../permissions/index.js";
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
  type ProviderName,
  RenderMemo,
} from "../render/index.js";
import { builtinProvider } from "../tools/index.js";
import { skillTool } from "../tools/skill.js";
import type { ProgressFactory } from "../util/progress.js";
import { loadToolModules, type ToolModuleSpec } from "./modules.js";
import { parseScopeChain } from "./scope.js";

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
    plane.tools.register(GLOBAL_LAYER, builtinProvider([skillTool(() => plane.skillsView())]));
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

  async visibleTools(): Promise<AnyTool[]> {
    const snapshot = await this.toolSnapshot();
    return snapshot.entries.filter((e) => this.withheldReason(e) === undefined).map((e) => e.entry);
  }

  /** Why a tool is kept from the model and from calls here: disabled, or denied outright. */
  withheldReason(e: Resolved<AnyTool>): string | undefined {
    if ((this.config.get("tools.disabled") as string[]).includes(e.name))
      return "it is disabled (tools.disabled)";
    const denied = deniedOutright({ name: e.name, namespace: namespaceOf(e) }, this.policy().rules);
    return denied ? `it is denied by ${denied.origin}` : undefined;
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
    const tools = async (): Promise<HostToolSet> => {
      const snapshot = await this.toolSnapshot();
      const available: HostTool[] = [];
      const withheld: Array<{ name: string; reason: string; code: ToolErrorCode }> = [];
      for (const e of snapshot.entries) {
        const reason = this.withheldReason(e);
        if (reason === undefined) available.push({ tool: e.entry, namespace: namespaceOf(e) });
        else {
          const code = reason.startsWith("it is denied") ? "permission_denied" : "unknown_tool";
          withheld.push({ name: e.name, reason, code });
        }
      }
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

  async catalog(provider: ProviderName): Promise<Catalog> {
    const snapshot = await this.toolSnapshot();
    const tools = snapshot.entries
      .filter((e) => this.withheldReason(e) === undefined)
      .map((e) => this.projection(e.entry));
    const view = await this.skillsView();
    const skills = view.skills
      .filter((s) => s.modelVisible)
      .map((s) => ({ name: s.name, description: s.description }));
    let renderer = this.renderers.get(provider);
    if (!renderer) {
      renderer = new CatalogRenderer(this.renderMemo);
      this.renderers.set(provider, renderer);
    }
    return renderer.render({
      provider,
      tools,
      skills,
      budget: this.budget(),
      incomplete: snapshot.incomplete || view.incomplete,
    });
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

function namespaceOf(e: Resolved<AnyTool>): string {
  return e.entry.host.namespace ?? e.namespace;
}
