import type { ToolProjection } from "../declare/project.js";
import type { JsonSchema } from "../declare/types.js";
import type { NameRule } from "./schema/names.js";
import type { ConvertedSchema, ConvertOptions } from "./schema/types.js";
import type { CatalogToolOf } from "./wire-types.js";

export const PROVIDERS = ["anthropic", "openai-chat", "openai-responses", "gemini", "mcp"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** One change an adapter made to a schema so the provider accepts it. */
export interface SchemaConversion {
  tool: string;
  /** JSON pointer inside the tool's parameters. */
  path: string;
  change: string;
}

export interface ProviderAdapter {
  readonly name: ProviderName;
  /** What the provider accepts as a function name. */
  readonly nameRule: NameRule;
  /** Pure: the parameters in the provider's dialect, plus a note per change (unless asked not to). */
  convert(parameters: JsonSchema, options?: ConvertOptions): ConvertedSchema;
  /** The provider's wire form of one tool, from its parts. */
  wire(parts: { name: string; description: string; converted: ConvertedSchema }): unknown;
}

/** One piece of volatile context: what it is (`skills`, `deferred`, `mcp-instructions`, or the caller's own kind) and its text. */
export interface Attachment {
  kind: string;
  text: string;
}

/** What a connected MCP server asks the model to know (its `instructions` at initialize). */
export interface ServerInstructions {
  server: string;
  text: string;
}

/**
 * Where the volatile parts go: `attachments` keeps them out of the system text (and out of
 * `prefixHash`); `system` puts them into the system text, as one stable text.
 */
export type VolatilePlacement = "attachments" | "system";

/** A skill as the catalog lists it. */
export interface CatalogSkill {
  name: string;
  description: string;
}

export interface BudgetCut {
  name: string;
  original: number;
  kept: number;
  /** What cut it: the per-description cap (`catalog.descriptionMaxChars`) or the catalog budget. */
  by: "descriptionMaxChars" | "budget";
}

export interface CatalogBudget {
  /** The binding unit's limit and use: tokens when a token limit is set and is the tighter. */
  limit: number;
  used: number;
  unit: "chars" | "tokens";
  /** True when a description was cut or an entry left out. */
  truncated: boolean;
  chars: { limit: number; used: number };
  tokens?: { limit: number; used: number };
  /** The common description cap water-filling chose, when it had to cut. */
  cap?: number;
}

/** Deferred tools in a provider's native form (see RenderInput.native). */
export interface NativeDeferral {
  tools: readonly ToolProjection[];
  /** The provider's own search tool in its wire form, e.g. `{type: "tool_search"}`. */
  searchTool: Readonly<Record<string, unknown>>;
  /** Request headers the native form needs (Anthropic's beta header). */
  headers?: Readonly<Record<string, string>>;
}

/** Tools that moved between resident, deferred and absent for one reason. */
export interface ResidencyMove {
  from: "resident" | "deferred" | "absent";
  to: "resident" | "deferred" | "absent";
  reason: string;
  names: string[];
}

/** How deferral shaped this catalog (set by the assembly that plans deferral). */
export interface DeferralReport {
  /** `none`: nothing deferred; `names`: names in the system text plus tool_search; `native`: the provider's form. */
  form: "none" | "names" | "native";
  /** Why deferral is on or off, in one line. */
  trigger: string;
  /** Tools tool_search loaded this session, in load order (resident, at the end of the tools). */
  loaded: string[];
  /** Residency changes since the session's previous plan, grouped by move and reason. */
  changes: ResidencyMove[];
}

export interface RenderReport {
  conversions: SchemaConversion[];
  /** Descriptions shortened to fit the budget. */
  cut: BudgetCut[];
  /** Entries left out because even their names did not fit (how many: its length). */
  omitted: string[];
  /** Tools whose name the provider does not accept, and the name sent instead. */
  renamed: Array<{ name: string; wireName: string }>;
  deferral?: DeferralReport;
}

/** One tool of a provider's catalog, in the provider's wire form (see wire-types.ts). */
export type CatalogTool<P extends ProviderName = ProviderName> = CatalogToolOf[P];

export interface Catalog<P extends ProviderName = ProviderName> {
  provider: P;
  /**
   * Provider wire-form tools, in the fixed order, typed for the provider: `catalog("anthropic")`
   * gives Anthropic tools (and, deferred natively, its tool search tool), ready for the SDK.
   */
  tools: Array<CatalogTool<P>>;
  /** The system-text part: the skill catalog (and deferred tool names). */
  system: string;
  deferred: string[];
  budget: CatalogBudget;
  /** sha256 of the serialised stable prefix: tools, then the system text. */
  prefixHash: string;
  incomplete: boolean;
  /**
   * What changes while a session runs, for the harness to send as a message after the cached
   * prefix: under `catalog.volatile: "attachments"` the skill listing (`skills`), the deferred
   * names (`deferred`) and MCP servers' instructions (`mcp-instructions`), then any the caller
   * gave. Never part of `prefixHash`.
   */
  attachments: Attachment[];
  /** Request headers the catalog needs (native deferred loading on Anthropic); absent when none. */
  headers?: Record<string, string>;
  report: RenderReport;
}
