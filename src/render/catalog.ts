import type { ToolProjection } from "../declare/project.js";
import { sha256 } from "../util/hash.js";
import { adapterFor } from "./adapters.js";
import type { Catalog, CatalogSkill, ProviderName, SchemaConversion } from "./types.js";

export interface RenderInput {
  provider: ProviderName;
  /** Model-facing projections, in registry order. */
  tools: readonly ToolProjection[];
  skills?: readonly CatalogSkill[];
  budgetChars: number;
  incomplete?: boolean;
  attachments?: readonly string[];
}

/** The skill catalog part of the system text; skills sorted by name. */
export function renderSkillCatalog(skills: readonly CatalogSkill[]): string {
  if (skills.length === 0) return "";
  const sorted = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines = sorted.map((s) => `- ${s.name}: ${s.description}`);
  return `Available skills (load one with the skill tool):\n${lines.join("\n")}`;
}

export function renderCatalog(input: RenderInput): Catalog {
  const adapter = adapterFor(input.provider);
  const conversions: SchemaConversion[] = [];
  const tools = input.tools.map((tool) => adapter.renderTool(tool, conversions));
  const system = renderSkillCatalog(input.skills ?? []);
  const used = input.tools.reduce((sum, t) => sum + t.name.length + t.description.length, 0) + system.length;
  return {
    provider: input.provider,
    tools,
    system,
    deferred: [],
    budget: { limit: input.budgetChars, used, unit: "chars", truncated: false },
    prefixHash: sha256(JSON.stringify({ tools, system })),
    incomplete: input.incomplete ?? false,
    attachments: [...(input.attachments ?? [])],
    report: { conversions, cut: [], omitted: [] },
  };
}
