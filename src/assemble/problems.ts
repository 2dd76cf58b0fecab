import type { Config } from "../config/index.js";
import { providerName } from "../mcp/config.js";
import { GLOBAL_LAYER, mergeProblems, type ProviderProblem } from "../register/index.js";
import type { Catalog, ProviderName } from "../render/index.js";

/** A provider problem as the catalog, layers and doctor JSON report it. */
export type ReportedProblem = ProviderProblem;

/** The catalog plus every provider problem of the reads it was built from. */
export type AssembledCatalog<P extends ProviderName = ProviderName> = Catalog<P> & {
  problems: ReportedProblem[];
};

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

/**
 * The providers an untrusted project's file names and that were not started (its tool modules,
 * MCP servers with a command), as problems: a library caller sees them in `catalog().problems`
 * as the CLI's notice tells a person. Not `incomplete`: reading again gives the same; trusting
 * the project is what adds them.
 */
export function untrustedProblems(config: Config): ReportedProblem[] {
  const { trust } = config;
  if (trust.trusted) return [];
  const out: ReportedProblem[] = [];
  const reason = (what: string) =>
    `${what}: ${trust.project} is not a trusted project; run \`${trust.command}\` if you trust its code`;
  for (const part of trust.ignored) {
    if (part.key === "tools.modules" && Array.isArray(part.value)) {
      for (const spec of part.value as Array<string | { path?: unknown; layer?: unknown }>) {
        const rel = typeof spec === "string" ? spec : String(spec?.path);
        const layer = typeof spec === "object" && typeof spec?.layer === "string" ? spec.layer : GLOBAL_LAYER;
        out.push({
          provider: `module:${rel}`,
          layer,
          outcome: "untrusted",
          reason: reason("not loaded (a tool module runs code from the repository)"),
        });
      }
    } else if (part.key === "mcp.servers" && part.value !== null && typeof part.value === "object") {
      for (const [name, server] of Object.entries(part.value as Record<string, object>)) {
        if (!("command" in server)) continue;
        out.push({
          provider: providerName(name),
          layer: GLOBAL_LAYER,
          outcome: "untrusted",
          reason: reason("not started (an MCP server with a command starts a program)"),
        });
      }
    }
  }
  return out;
}
