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
import { type McpClients, type McpServerConfig, registerMcpServers } from "../mcp/index.js";
import { GLOBAL_LAYER, Registry, type Snapshot } from "../register/index.js";
import {
  type BudgetSettings,
  type Catalog,
  CatalogRenderer,
  type ProviderName,
  RenderMemo,
} from "../render/index.js";
import { skillTool } from "../tools/skill.js";
import { parseScopeChain } from "./scope.js";

export interface ToolplaneOptions extends LoadOptions {
  /** Scope chain, nearest first, e.g. "session-1>agent:reviewer". */
  scope?: string;
  /** Where problems for people go (a failed MCP server, ...); silent when unset. */
  log?: (line: string) => void;
  /** The bundled skills root; null for none (tests). Defaults to the package's `skills` folder. */
  bundledSkills?: string | null;
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
  private watcher: SkillWatcher | undefined;
  private readonly renderMemo = new RenderMemo();
  private readonly renderers = new Map<ProviderName, CatalogRenderer>();
  private readonly projections = new WeakMap<AnyTool, ToolProjection>();

  private constructor(config: Config, chain: string[], options: ToolplaneOptions) {
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
    this.discovery = new SkillDiscovery(discovery);
  }

  static async open(options: ToolplaneOptions): Promise<Toolplane> {
    const plane = new Toolplane(loadConfig(options), parseScopeChain(options.scope), options);
    const builtin = [skillTool(() => plane.skillsView())];
    plane.tools.register(GLOBAL_LAYER, { name: "builtin", rank: 0, enumerate: () => builtin });
    plane.tools.register(GLOBAL_LAYER, ticketProvider());
    const servers = plane.config.get("mcp.servers") as Record<string, McpServerConfig>;
    plane.mcp = registerMcpServers(plane.tools, servers, options.log ? { log: options.log } : {});
    return plane;
  }

  /** The tools this scope may use: the merged snapshot minus disabled tools. */
  async toolSnapshot(): Promise<Snapshot<AnyTool>> {
    return this.tools.snapshot(this.chain);
  }

  async visibleTools(): Promise<AnyTool[]> {
    const disabled = new Set(this.config.get("tools.disabled") as string[]);
    const snapshot = await this.toolSnapshot();
    return snapshot.entries.filter((e) => !disabled.has(e.name)).map((e) => e.entry);
  }

  /** Discovered skills for this scope: winners with visibility, shadowed, problems. */
  async skillsView(): Promise<SkillsView> {
    return this.discovery.view(this.chain);
  }

  /** Starts watching the skill roots (once); close() stops it. */
  async watchSkills(options: WatchOptions = {}): Promise<SkillWatcher> {
    this.watcher ??= await SkillWatcher.start(this.discovery, {
      auditIntervalMs: this.config.get("skills.auditIntervalMs") as number,
      ...options,
    });
    return this.watcher;
  }

  async catalog(provider: ProviderName): Promise<Catalog> {
    const snapshot = await this.toolSnapshot();
    const disabled = new Set(this.config.get("tools.disabled") as string[]);
    const tools = snapshot.entries.filter((e) => !disabled.has(e.name)).map((e) => this.projection(e.entry));
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
    await this.watcher?.close();
    this.watcher = undefined;
    this.discovery.close();
  }
}
