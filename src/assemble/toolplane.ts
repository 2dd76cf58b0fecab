import { randomBytes } from "node:crypto";
import path from "node:path";
import { type Config, loadConfig } from "../config/index.js";
import type { AnyTool, ToolSession } from "../declare/types.js";
import {
  type Skill,
  SkillDiscovery,
  type SkillsView,
  SkillWatcher,
  type WatchOptions,
} from "../discover/index.js";
import {
  defaultSpillBase,
  type ExecutionHost,
  newToolSession,
  SpillStore,
  type ToolResult,
} from "../execute/index.js";
import { HookRegistry } from "../hooks/index.js";
import type { McpClients } from "../mcp/client/index.js";
import type { PermissionPolicy } from "../permissions/index.js";
import { Registry, type Resolved, type Snapshot } from "../register/index.js";
import type { BudgetSettings, ProviderName } from "../render/index.js";
import { budgetFrom, CatalogAssembler, catalogKeys } from "./catalog.js";
import { sessionDeferConfig } from "./defer-config.js";
import {
  type DeferralExplanation,
  type SessionDeferConfig,
  SessionDeferral,
  type VisibleTool,
} from "./deferral.js";
import { assembleHost, type HostRequest } from "./host.js";
import type { ToolplaneOptions } from "./options.js";
import { policyOf } from "./policy.js";
import { type AssembledCatalog, reportProblems, untrustedNotice, untrustedProblems } from "./problems.js";
import { registerProviders } from "./providers.js";
import { parseScopeChain } from "./scope.js";
import { type ConfigHolder, reloadFiles, setKey } from "./set-key.js";
import { chainKey, viewOf } from "./views.js";
import {
  namespaceOf,
  searchWithheld,
  VisibilityMemo,
  type VisibilityRules,
  withheldReason,
} from "./visibility.js";

export type { DeferralExplanation } from "./deferral.js";
export type { HostRequest } from "./host.js";
export type { ToolplaneOptions } from "./options.js";
export type { AssembledCatalog, ReportedProblem } from "./problems.js";

/**
 * One assembled tool layer for a working directory: configuration, the tool registry with its
 * providers, and the reads a harness makes (snapshot, catalog). Stations stay independent; this
 * is the one place that wires them together.
 */
export class Toolplane {
  /**
   * The configuration, shared by this plane's sessions; `set()` replaces it (the holder is one
   * object, so a session view made by newSession() sees the change too).
   */
  get config(): Config {
    return this.configs.now;
  }
  private readonly configs: ConfigHolder;
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
  /**
   * The sweep of old spill directories started at open: not awaited there (removing gigabytes
   * must not delay the first call), awaited by close(). Resolves to how many were removed.
   */
  readonly swept: Promise<number>;
  private readonly catalogs = new CatalogAssembler();
  /** This session's deferral: what is deferred, the loaded set, and the tool_search tool. */
  readonly deferral = new SessionDeferral();
  /** What this session's calls share: the files read (edit and write check them), the shell's directory. */
  readonly toolSession: ToolSession = newToolSession();
  /** In-process hooks every host of this plane runs, with the configured ones (docs/hooks.md). */
  readonly hooks = new HookRegistry();
  private readonly visibleBySnapshot = new WeakMap<Snapshot<AnyTool>, VisibleTool[]>();
  private readonly visibilityMemo = new VisibilityMemo();
  /** The plane every view (session or scope) reads through to, and its scope views by chain. */
  private readonly root: Toolplane = this;
  private readonly scopeViews = new Map<string, Toolplane>();

  private constructor(config: Config, chain: string[], options: ToolplaneOptions, session: string) {
    this.configs = { now: config, options, changes: [] };
    this.chain = chain;
    const enumerateTimeoutMs = config.get("tools.providerTimeoutMs") as number;
    this.tools = new Registry<AnyTool>({ kind: "tool", enumerateTimeoutMs });
    this.skills = new Registry<Skill>({ kind: "skill", enumerateTimeoutMs });
    const discovery: ConstructorParameters<typeof SkillDiscovery>[0] = {
      cwd: config.cwd,
      paths: config.get("skills.paths") as string[],
      disabled: config.get("skills.disabled") as string[],
      registry: this.skills,
    };
    if (options.env) discovery.env = this.deferral.env = options.env;
    if (options.bundledSkills !== undefined) discovery.bundled = options.bundledSkills;
    if (options.progress) discovery.progress = options.progress;
    this.discovery = new SkillDiscovery(discovery);
    const dir = config.get("results.spillDir") as string | null;
    this.spill = new SpillStore(dir ? path.resolve(config.projectRoot, dir) : defaultSpillBase(), session);
    this.swept = this.spill.sweep(config.get("results.spillMaxAgeHours") as number);
  }

  static async open(options: ToolplaneOptions): Promise<Toolplane> {
    const session = options.session ?? `session-${randomBytes(6).toString("hex")}`;
    const plane = new Toolplane(loadConfig(options), parseScopeChain(options.scope), options, session);
    const notice = untrustedNotice(plane.config);
    if (notice) options.log?.(notice);
    await registerProviders(plane, options);
    return plane;
  }

  /**
   * Another session on this plane (`serve --http` opens one per client): its own deferral and
   * tool session (files read, the shell's directory); everything else, the catalog renderers
   * included (their memo holds no session state), is this plane's. Closing this plane ends it.
   */
  newSession(): Toolplane {
    return viewOf<Toolplane>(this, {
      deferral: new SessionDeferral(),
      toolSession: newToolSession(),
      close: async () => {},
    });
  }

  /**
   * This plane for another scope chain (`session-1>agent:reviewer`), sharing the registries,
   * discovery, configuration, MCP connections and spill store: a harness with a reviewer and a
   * writer agent opens one plane, and one copy of each MCP server. Each chain has its own view,
   * kept for the plane's life (the same view every time it is asked for), with its own deferral,
   * tool session and renderers. `catalog(p, {scope})` and `host({scope})` go through it.
   */
  scoped(scope: string | undefined): Toolplane {
    const chain = parseScopeChain(scope);
    const key = chainKey(chain);
    if (key === chainKey(this.chain)) return this;
    const root = this.root;
    if (key === chainKey(root.chain)) return root;
    let view = root.scopeViews.get(key);
    if (!view) {
      view = viewOf<Toolplane>(root, {
        chain,
        deferral: new SessionDeferral(),
        toolSession: newToolSession(),
        catalogs: new CatalogAssembler(),
        close: async () => {},
      });
      root.scopeViews.set(key, view);
    }
    return view;
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
   * The snapshot's tools minus withheld ones, kept per snapshot (a change of the rules that decide
   * it invalidates the registry, so a new snapshot): the deferral planner sees the same array.
   */
  private visible(snapshot: Snapshot<AnyTool>): VisibleTool[] {
    let hit = this.visibleBySnapshot.get(snapshot);
    if (!hit) {
      hit = this.visibilityMemo.visible(snapshot, this.visibility());
      this.visibleBySnapshot.set(snapshot, hit);
    }
    return hit;
  }

  /** Permission rules and disabled names: what keeps a registered tool from the model here. */
  private visibility(): VisibilityRules {
    return { rules: this.policy().rules, disabled: this.config.get("tools.disabled") as string[] };
  }

  /** Why a registered tool is kept from the model and from calls here (undefined: it is not). */
  withheldReasonOf(e: Resolved<AnyTool>): string | undefined {
    return withheldReason(e.name, namespaceOf(e), this.visibility());
  }

  /** This session's residency plan for a snapshot (the same plan every reader of it gets). */
  private async planFor(visible: readonly VisibleTool[]) {
    return this.deferral.plan(visible, await this.deferConfig(), searchWithheld(this.visibility()));
  }

  /** The defer.* keys and marks, the skill tool held while skills are listed (defer-config.ts). */
  private deferConfig(): Promise<SessionDeferConfig> {
    return sessionDeferConfig(this.config, async () =>
      (await this.skillsView()).skills.some((s) => s.modelVisible),
    );
  }

  /**
   * Why each visible tool is resident or deferred for this session, and where the tool set sits
   * in the threshold band: the plan every catalog and host turn of this session reads.
   */
  async explainDeferral(): Promise<DeferralExplanation> {
    const visible = this.visible(await this.toolSnapshot());
    const { trigger } = await this.planFor(visible);
    const config = await this.deferConfig();
    // as planFor: without tool_search nothing is deferred
    const off = searchWithheld(this.visibility()) !== undefined;
    return this.deferral.explain(off ? { ...config, mode: "off" } : config, trigger)!;
  }

  /**
   * The tools the model sees in full when deferred tools are listed by name (the client-side
   * form): resident tools in plan order, tool_search when anything is deferred, then the tools
   * tool_search loaded. The MCP server lists these.
   */
  async modelTools(): Promise<AnyTool[]> {
    const visible = this.visible(await this.toolSnapshot());
    const { plan } = await this.planFor(visible);
    return this.deferral.residentTools(plan).slice();
  }

  /**
   * Loads deferred tools by name as tool_search would, so they are callable and join the model's
   * list on the next render (a harness that knows a tool will be needed; `toolplane call` for a
   * person). Returns the names newly loaded: a tool that is not deferred here is left alone.
   */
  async load(names: readonly string[]): Promise<string[]> {
    const visible = this.visible(await this.toolSnapshot());
    await this.planFor(visible);
    return this.deferral.load(names);
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
    return policyOf(this.config);
  }

  /**
   * Changes one configuration key on the live plane. A run-time key applies from the next call
   * (hosts read the configuration per call) and leaves the catalog and prefixHash alone; an
   * assembly key (or a permission rule, which may deny a whole tool) invalidates the registry, so
   * catalogs and their listeners read again. A key read only at open is refused (see set-key.ts).
   */
  set(key: string, value: unknown): void {
    if (setKey(this.configs, key, value)) this.tools.invalidate("runtime");
  }

  /**
   * Reads the configuration files again (one was edited while the plane runs) and applies what
   * changed as set() would: run-time keys from the next call, an assembly key or permission rule
   * by invalidating. A changed key read only at open applies nothing (it is in `needsRestart`:
   * open a new plane). A file that does not load throws ConfigError; the configuration stays.
   */
  reload(): { changed: string[]; needsRestart: string[] } {
    const { changed, needsRestart, refresh } = reloadFiles(this.configs);
    if (refresh) this.tools.invalidate("runtime");
    return { changed, needsRestart };
  }

  /**
   * The execution host for this scope: validation, permissions, timeouts, result limits and
   * spill. Each run reads the current tool snapshot, so registry changes reach the next turn.
   */
  host(request: HostRequest & { scope?: string } = {}): ExecutionHost {
    if (request.scope !== undefined) {
      const { scope, ...rest } = request;
      return this.scoped(scope).host(rest);
    }
    const plane = this;
    return assembleHost(
      {
        // read per call, so a set() reaches hosts made before it
        get config() {
          return plane.config;
        },
        spill: this.spill,
        snapshot: () => this.toolSnapshot(),
        policy: () => this.policy(),
        visibility: () => this.visibility(),
        deferral: this.deferral,
        deferConfig: () => this.deferConfig(),
        session: this.toolSession,
        hooks: this.hooks,
        log: (this.configs.options as ToolplaneOptions).log,
      },
      request,
    );
  }

  /** Runs one call as the host would (a convenience over host().call(); `provider`: see HostRequest). */
  async call(
    tool: string,
    args: unknown,
    request: HostRequest & { scope?: string; signal?: AbortSignal } = {},
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
    // one watcher per plane: a session or scope view's would be its own, and close() would miss it
    if (this.root !== this) return this.root.watchSkills(options);
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
   * What the model sees for `provider`, planned for this session's deferral (see CatalogAssembler),
   * with every provider problem of the reads it was built from (tools and skills).
   */
  async catalog<P extends ProviderName>(
    provider: P,
    options: { scope?: string } = {},
  ): Promise<AssembledCatalog<P>> {
    if (options.scope !== undefined) return this.scoped(options.scope).catalog(provider);
    const snapshot = await this.toolSnapshot();
    const planned = await this.planFor(this.visible(snapshot));
    const view = await this.skillsView();
    const { catalog, form, trigger } = this.catalogs.render({
      provider,
      planned,
      residentTools: this.deferral.residentTools(planned.plan),
      deferredTools: () => this.deferral.deferredTools(planned.plan),
      skills: view.skills
        .filter((s) => s.modelVisible)
        .map((s) => ({ name: s.name, description: s.description })),
      ...catalogKeys(this.config),
      incomplete: snapshot.incomplete || view.incomplete,
      instructions: this.mcp?.instructions() ?? [],
    });
    // a new report object: the renderer keeps its own catalog for the next incremental render
    const deferral = this.deferral.report(provider, form, trigger, catalog.report.renamed);
    const report = { ...catalog.report, deferral };
    const problems = reportProblems(snapshot.problems, view.providerProblems, untrustedProblems(this.config));
    // rendered for `provider`: its tools are that provider's wire form
    return { ...catalog, report, problems } as AssembledCatalog<P>;
  }

  /** The catalog budget from the assembly keys. */
  budget(): BudgetSettings {
    return budgetFrom(this.config);
  }

  /**
   * Ends the session: MCP servers, the skill watcher, and this session's spill directory (unless
   * results.keepSpill or `keepSpill` says to keep it: a caller that printed a spill path for a
   * person to open, as `toolplane call` does).
   */
  async close(options: { keepSpill?: boolean } = {}): Promise<void> {
    await this.swept;
    if (!options.keepSpill && !(this.config.get("results.keepSpill") as boolean)) await this.spill.remove();
    await this.mcp?.close();
    const watching = this.watching;
    this.watching = undefined;
    await (await watching?.catch(() => undefined))?.close();
    this.discovery.close();
    await this.deferral.session.close();
  }
}
