import { NAME_RULES } from "../schema/names.js";
import { toOpenAIStrict } from "../schema/openai-strict.js";
import type { ProviderAdapter } from "../types.js";

/** Responses API `tools[]`: `{type: "function", name, description, parameters, strict}` (flat). */
export const openaiResponses: ProviderAdapter = {
  name: "openai-responses",
  nameRule: NAME_RULES.strictAscii,
  convert: toOpenAIStrict,
  wire: ({ name, description, converted }) => ({
    type: "function",
    name,
    description,
    parameters: converted.schema,
    strict: converted.strict === true,
  }),
};
