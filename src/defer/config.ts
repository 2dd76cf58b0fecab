import type { Config } from "../config/index.js";
import type { EmbedderConfig } from "./embed/embedder.js";
import type { DeferConfig } from "./plan.js";

/** The `defer.*` keys as the planner reads them. */
export function deferConfigFrom(
  config: Pick<Config, "get">,
): DeferConfig & { native: boolean; embedder: EmbedderConfig } {
  return {
    mode: config.get("defer.mode") as DeferConfig["mode"],
    threshold: config.get("defer.threshold") as number,
    maxSchemaBytes: (config.get("defer.maxSchemaBytes") as number | null) ?? null,
    thresholdTokens: (config.get("defer.thresholdTokens") as number | null) ?? null,
    resident: config.get("defer.resident") as string[],
    native: config.get("defer.native") as boolean,
    embedder: config.get("search.embedder") as EmbedderConfig,
  };
}
