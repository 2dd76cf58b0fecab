import { ticketProvider } from "../../examples/ticket-status/index.js";
import { type Config, type LoadOptions, loadConfig } from "../config/index.js";
import { projectTool } from "../declare/project.js";
import type { AnyTool } from "../declare/types.js";
import { GLOBAL_LAYER, Registry, type Snapshot } from "../register/index.js";
import { type Catalog, type ProviderName, renderCatalog } from "../render/index.js";
import { builtinProvider } from "../tools/index.js";
import { parseScopeChain } from "./scope.js";

export interface ToolplaneOptions extends LoadOptions {
  /** Scope chain, nearest first, e.g. "session-1>agent:reviewer". */
  scope?: string;
}

/**
 * One assembled tool layer for a working directory: configuration, the tool registry with its
 * providers, and the reads a harness makes (snapshot, catalog). Stations stay independent; this
 * is the one place that wires them together.
 */
export class Toolplane {
  readonly config: Config;
  readonly tools: Registry<AnyTool>;
  readonly chain: string[];

  private constructor(config: Config, chain: string[]) {
    this.config = config;
    this.chain = chain;
    this.tools = new Registry<AnyTool>({ kind: "tool" });
  }

  static async open(options: ToolplaneOptions): Promise<Toolplane> {
    const plane = new Toolplane(loadConfig(options), parseScopeChain(options.scope));
    plane.tools.register(GLOBAL_LAYER, builtinProvider());
    plane.tools.register(GLOBAL_LAYER, ticketProvider());
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

  async catalog(provider: ProviderName): Promise<Catalog> {
    const snapshot = await this.toolSnapshot();
    const disabled = new Set(this.config.get("tools.disabled") as string[]);
    const tools = snapshot.entries.filter((e) => !disabled.has(e.name)).map((e) => projectTool(e.entry));
    return renderCatalog({
      provider,
      tools,
      skills: [],
      budgetChars: this.config.get("catalog.budget.chars") as number,
      incomplete: snapshot.incomplete,
    });
  }

  async close(): Promise<void> {}
}
