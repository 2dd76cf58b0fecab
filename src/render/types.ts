import type { JsonSchema } from "../declare/types.js";
import type { NameRule } from "./schema/names.js";
import type { ConvertedSchema } from "./schema/types.js";

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
  /** Pure: the parameters in the provider's dialect, plus a note per change. */
  convert(parameters: JsonSchema): ConvertedSchema;
  /** The provider's wire form of one tool, from its parts. */
  wire(parts: { name: string; description: string; converted: ConvertedSchema }): unknown;
}

/** A skill as the catalog lists it. */
export interface CatalogSkill {
  name: string;
  description: string;
}

export interface BudgetCut {
  name: string;
  original: number;
  kept: number;
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

export interface RenderReport {
  conversions: SchemaConversion[];
  /** Descriptions shortened to fit the budget. */
  cut: BudgetCut[];
  /** Entries left out because even their names did not fit (how many: its length). */
  omitted: string[];
  /** Tools whose name the provider does not accept, and the name sent instead. */
  renamed: Array<{ name: string; wireName: string }>;
}

export interface Catalog {
  provider: ProviderName;
  /** Provider wire-form tools, in the fixed order. */
  tools: unknown[];
  /** The system-text part: the skill catalog (and deferred tool names). */
  system: string;
  deferred: string[];
  budget: CatalogBudget;
  /** sha256 of the serialised stable prefix: tools, then the system text. */
  prefixHash: string;
  incomplete: boolean;
  /** Volatile context that must never sit in the stable prefix. */
  attachments: string[];
  report: RenderReport;
}
