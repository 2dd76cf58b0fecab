// Why each tool of a plan sits where it does, with the threshold band: what the inspector and
// `explainDeferral` show. The reasons are the planner's own (plan.ts), so they never disagree.
import {
  type DeferConfig,
  type DeferMark,
  type DeferPlan,
  HYSTERESIS,
  type PlanEntry,
  reasonContext,
  residencyReason,
  TOOL_SEARCH_NAME,
} from "./plan.js";

/** One tool of a plan, where it is and why. */
export interface ResidencyExplanation {
  name: string;
  residency: "resident" | "deferred";
  /** Loaded by tool_search this session (resident at the end of the list). */
  loaded: boolean;
  /** The tool's own mark (`auto` when it has none); `never` when listed in defer.resident. */
  mark: DeferMark;
  markedBy?: string;
  /** The reason a change to this residency would carry. */
  reason: string;
}

/** The threshold trigger's figures beside its limits: where the tool set sits in the band. */
export interface ThresholdBand {
  mode: DeferConfig["mode"];
  /** Tools the trigger counts (marked `never` or `auto`; tool_search excluded). */
  count: number;
  threshold: number;
  /** Once on, the trigger stays on until the count falls to this (HYSTERESIS of the threshold). */
  releaseAt: number;
  maxSchemaBytes: number | null;
  thresholdTokens: number | null;
  /** Whether the trigger is on after this plan. */
  triggered: boolean;
}

/**
 * Why each tool of `plan` sits where it does (in plan order: resident, then deferred), and the
 * threshold band, from the entries and config the plan was made from. The reasons are the ones
 * planDeferral gives a change, so an explanation and a reported move never disagree.
 */
export function explainPlan(
  entries: readonly PlanEntry[],
  config: DeferConfig,
  plan: DeferPlan,
): { tools: ResidencyExplanation[]; band: ThresholdBand } {
  const tools = entries.filter((e) => e.name !== TOOL_SEARCH_NAME);
  const ctx = reasonContext(tools, config, new Set(plan.loaded), plan.trigger);
  const byName = new Map(tools.map((e) => [e.name, e]));
  const explain = (name: string, residency: "resident" | "deferred"): ResidencyExplanation => {
    const e = byName.get(name);
    const mark: DeferMark = ctx.pinned.has(name) ? "never" : (e?.mark ?? "auto");
    const out: ResidencyExplanation = {
      name,
      residency,
      loaded: ctx.loaded.has(name),
      mark,
      reason: residencyReason(name, residency, ctx),
    };
    if (Object.hasOwn(ctx.held, name) && !ctx.resident.has(name)) out.markedBy = ctx.held[name]!;
    else if (ctx.pinned.has(name)) out.markedBy = "defer.resident";
    else if (e?.markedBy !== undefined) out.markedBy = e.markedBy;
    return out;
  };
  // as decideTrigger counts: every tool but those marked `always` (defer.resident overrides a mark)
  const counted = tools.filter((e) => ctx.off || ctx.pinned.has(e.name) || e.mark !== "always");
  return {
    tools: [
      ...plan.resident.map((n) => explain(n, "resident")),
      ...plan.deferred.map((n) => explain(n, "deferred")),
    ],
    band: {
      mode: config.mode,
      count: counted.length,
      threshold: config.threshold,
      releaseAt: Math.floor(config.threshold * HYSTERESIS),
      maxSchemaBytes: config.maxSchemaBytes ?? null,
      thresholdTokens: config.thresholdTokens ?? null,
      triggered: plan.state.triggered,
    },
  };
}
