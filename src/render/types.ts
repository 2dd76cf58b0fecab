import type { ToolProjection } from "../declare/project.js";

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
  /** The provider's wire form of one tool; conversions it makes are pushed onto `notes`. */
  renderTool(tool: ToolProjection, notes: SchemaConversion[]): unknown;
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
  limit: number;
  used: number;
  unit: "chars" | "tokens";
  truncated: boolean;
}

export interface RenderReport {
  conversions: SchemaConversion[];
  /** Descriptions shortened to fit the budget. */
  cut: BudgetCut[];
  /** Entries left out because even their names did not fit. */
  omitted: string[];
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
