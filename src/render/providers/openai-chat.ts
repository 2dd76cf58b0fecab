import { NAME_RULES } from "../schema/names.js";
import { toOpenAIStrict } from "../schema/openai-strict.js";
import type { ProviderAdapter } from "../types.js";

/** Chat Completions `tools[]`: `{type: "function", function: {name, description, parameters, strict}}`. */
export const openaiChat: ProviderAdapter = {
  name: "openai-chat",
  nameRule: NAME_RULES.strictAscii,
  convert: toOpenAIStrict,
  wire: ({ name, description, converted }) => ({
    type: "function",
    function: { name, description, parameters: converted.schema, strict: converted.strict === true },
  }),
};
