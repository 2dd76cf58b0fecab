import type { EmbedderConfig } from "./embedder.js";
import { localEmbedder } from "./local.js";
import { openAiEmbedder } from "./openai.js";
import { SemanticRanker } from "./semantic.js";

/**
 * The ranker `search.embedder` names, or undefined for "off". The endpoint's key is read from the
 * environment variable the configuration names (OPENAI_API_KEY by default), never from the file.
 */
export function rankerFor(
  config: EmbedderConfig,
  env: NodeJS.ProcessEnv = process.env,
): SemanticRanker | undefined {
  if (config === "off") return undefined;
  if (config.kind === "local") return new SemanticRanker(localEmbedder(), env);
  const apiKey = env[config.apiKeyEnv ?? "OPENAI_API_KEY"];
  return new SemanticRanker(
    openAiEmbedder({
      url: config.url,
      model: config.model,
      ...(apiKey ? { apiKey } : {}),
      ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
    }),
    env,
  );
}
