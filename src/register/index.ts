export { DuplicateProviderError, MalformedEntryError, ProviderUnavailable } from "./errors.js";
export { describeLayers, type LayerEntryView, type LayersView } from "./layers-view.js";
export { type SnapshotPatch, snapshotPatch } from "./merge-patch.js";
export { nameMatcher } from "./patterns.js";
export { describeProblem, mergeProblems } from "./problems.js";
export { GLOBAL_LAYER, Registry, type RegistryOptions } from "./registry.js";
export { type EntrySummary, summarize } from "./summary.js";
export type * from "./types.js";
