import type { Toolplane } from "../assemble/index.js";
import { reportProblems } from "../assemble/problems.js";
import type { AnyTool } from "../declare/types.js";
import { rankQuery } from "../defer/embed/semantic.js";
import { Bm25fIndex, entryFromTool, TOOL_SEARCH_NAME } from "../defer/index.js";
import { compilePattern } from "../defer/session.js";
import { evalSelection } from "../eval/selection.js";
import { describeLayers, type Resolved } from "../register/index.js";
import type { ProviderName } from "../render/index.js";
import type {
  CatalogView,
  DeferralView,
  EntryState,
  LayersPageView,
  SearchView,
  SelectionView,
  ToolForm,
} from "./api-types.js";
import { budgetEntries, budgetTotals } from "./budget-entries.js";
import type { PrefixChanges } from "./prefix-changes.js";

/** The catalog as the library rendered it for `provider`, its budget piece by piece, and the last prefix change. */
export async function catalogView(
  plane: Toolplane,
  provider: ProviderName,
  changes: PrefixChanges,
): Promise<CatalogView> {
  const catalog = await plane.catalog(provider);
  const entries = budgetEntries(catalog);
  const view: CatalogView = { catalog, entries, totals: budgetTotals(entries) };
  const change = changes.seen(catalog);
  if (change) view.change = change;
  return view;
}

/** Where each tool sits and why, from the session's plan (the one its catalogs are rendered from). */
export async function deferralView(plane: Toolplane): Promise<DeferralView> {
  const explained = await plane.explainDeferral();
  return {
    ...explained,
    resident: [...(plane.config.get("defer.resident") as string[])],
    native: plane.config.get("defer.native") as boolean,
  };
}

/** Every layer's tools with the state each is in and why, the skills, and every problem. */
export async function layersView(plane: Toolplane, configError?: string): Promise<LayersPageView> {
  const [layers, snapshot, skills] = await Promise.all([
    describeLayers(plane.tools, plane.chain),
    plane.toolSnapshot(),
    plane.skillsView(),
  ]);
  const resolvedOf = (name: string, provider: string, layer: string): Resolved<AnyTool> | undefined => {
    const r = snapshot.get(name);
    return r && r.provider === provider && r.layer === layer ? r : undefined;
  };
  const view: LayersPageView = {
    chain: layers.chain,
    layers: layers.layers.map((layer) => {
      const out: LayersPageView["layers"][number] = {
        name: layer.name,
        entries: layer.entries.map((e) => {
          let state: EntryState = "active";
          let why: string | undefined;
          if (e.shadowed) {
            state = "shadowed";
            const by = e.shadowedBy ? `${e.shadowedBy.provider} in ${e.shadowedBy.layer}` : "another entry";
            why = `shadowed by ${by} (${e.shadowReason === "rank" ? "lower rank in the same layer" : "nearer layer"})`;
          } else if (e.withheldBy) {
            state = "restricted";
            why = `withheld by the restrictions of ${e.withheldBy}`;
          } else {
            const resolved = resolvedOf(e.name, e.provider, layer.name);
            const reason = resolved ? plane.withheldReasonOf(resolved) : undefined;
            if (reason) {
              why = reason;
              state = reason.startsWith("it is disabled")
                ? "disabled"
                : reason.startsWith("it is denied")
                  ? "denied"
                  : "reserved";
            }
          }
          return why === undefined
            ? { name: e.name, provider: e.provider, state }
            : { name: e.name, provider: e.provider, state, why };
        }),
      };
      if (layer.restrictions !== undefined) out.restrictions = layer.restrictions;
      return out;
    }),
    skills: skills.skills,
    shadowedSkills: skills.shadowed,
    skillProblems: skills.problems,
    problems: reportProblems(snapshot.problems, skills.providerProblems),
    trust: {
      project: plane.config.trust.project,
      trusted: plane.config.trust.trusted,
      source: plane.config.trust.source,
      command: plane.config.trust.command,
      ignored: plane.config.trust.ignored.map((i) => ({ key: i.key, reason: i.reason })),
    },
  };
  if (configError !== undefined) view.configError = configError;
  return view;
}

export interface SearchRequest {
  query?: string;
  pattern?: string;
  limit?: number;
  /** "deferred": what tool_search ranks; "all": every visible tool (as `toolplane search`). */
  over?: "deferred" | "all";
}

/**
 * Ranks tools as tool_search does (the session's own index over its deferred tools) or over
 * every visible tool, without loading anything: looking is not choosing.
 */
export async function searchView(plane: Toolplane, req: SearchRequest): Promise<SearchView> {
  const limit = Math.min(Math.max(1, Math.trunc(req.limit ?? 10)), 50);
  const over = req.over ?? "deferred";
  const explained = await plane.explainDeferral();
  const residency = new Map(explained.tools.map((t) => [t.name, t.residency as string]));
  let index: Bm25fIndex;
  let filter: ((name: string) => boolean) | undefined;
  let searched: number;
  if (over === "deferred") {
    index = plane.deferral.session.index;
    const deferred = new Set(explained.tools.filter((t) => t.residency === "deferred").map((t) => t.name));
    filter = (name) => deferred.has(name);
    searched = deferred.size;
  } else {
    const snapshot = await plane.toolSnapshot();
    const visible = new Set((await plane.visibleTools()).map((t) => t.name));
    index = new Bm25fIndex();
    const entries = snapshot.entries.filter((e) => visible.has(e.name));
    index.sync(entries.map((e) => entryFromTool(e.entry, e.namespace)));
    searched = entries.length;
  }
  const mode = req.pattern !== undefined ? "pattern" : "query";
  // over the deferred tools with search.embedder on, the blend tool_search ranks by
  const semantic = over === "deferred" && mode === "query" ? plane.deferral.session.semantic : undefined;
  const { hits, ranking } =
    req.pattern !== undefined
      ? { hits: index.searchRegex(compilePattern(req.pattern), limit, filter), ranking: undefined }
      : await rankQuery(index, semantic, req.query ?? "", limit, filter);
  const round = (x: number) => Math.round(x * 10_000) / 10_000;
  return {
    ...(ranking ? { ranking } : {}),
    mode,
    over,
    results: hits.map((h) => ({
      name: h.name,
      score: round(h.score),
      relevance: round(h.raw),
      residency: residency.get(h.name) ?? "absent",
    })),
    searched,
  };
}

/** Every visible tool's selection cases through tool search (`toolplane eval selection`). */
export async function selectionView(plane: Toolplane): Promise<SelectionView> {
  const report = await evalSelection(plane);
  return {
    ok: report.ok,
    tools: report.tools.map((t) => ({ tool: t.tool, ok: t.ok, search: t.search })),
    untested: report.untested,
    summary: report.summary,
  };
}

/** The tools a person may call here, each with the JSON Schema its arguments are checked against. */
export async function toolForms(plane: Toolplane): Promise<ToolForm[]> {
  const explained = await plane.explainDeferral();
  const residency = new Map(explained.tools.map((t) => [t.name, t.residency]));
  const tools = await plane.visibleTools();
  const forms: ToolForm[] = tools.map((t) => ({
    name: t.name,
    ...(t.host.display?.title ? { title: t.host.display.title } : {}),
    description: t.description,
    parameters: t.parameters,
    residency: residency.get(t.name) ?? "resident",
  }));
  if (residency.has(TOOL_SEARCH_NAME)) {
    const search = plane.deferral.searchTool;
    forms.push({
      name: search.name,
      description: search.description,
      parameters: search.parameters,
      residency: "resident",
    });
  }
  return forms;
}
