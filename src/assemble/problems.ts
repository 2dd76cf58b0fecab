import type { Config } from "../config/index.js";
import { mergeProblems, type ProviderProblem } from "../register/index.js";
import type { Catalog } from "../render/index.js";

/** A provider problem as the catalog, layers and doctor JSON report it. */
export type ReportedProblem = ProviderProblem;

/** The catalog plus every provider problem of the reads it was built from. */
export type AssembledCatalog = Catalog & { problems: ReportedProblem[] };

export function reportProblems(...lists: ReadonlyArray<readonly ProviderProblem[]>): ReportedProblem[] {
  return mergeProblems(...lists);
}

/** One line for people when an untrusted project's file set something that was not applied. */
export function untrustedNotice(config: Config): string | undefined {
  const { trust } = config;
  if (trust.trusted || trust.ignored.length === 0) return undefined;
  const keys = [...new Set(trust.ignored.map((i) => i.key))];
  // hooks are commands around every call: say in words that they were not run
  const hooks = keys.some((k) => k.startsWith("hooks.")) ? "; its hooks do not run" : "";
  return `toolplane: ${trust.project} is not a trusted project, so its .toolplane/config.json was applied only where it tightens (left out: ${keys.join(", ")}${hooks}); run \`${trust.command}\` if you trust its code, and \`toolplane config\` for details`;
}
