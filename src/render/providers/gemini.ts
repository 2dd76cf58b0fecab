import { toGemini } from "../schema/gemini.js";
import { NAME_RULES } from "../schema/names.js";
import type { ProviderAdapter } from "../types.js";

/** One entry of `tools[].functionDeclarations[]`: `{name, description, parameters?}`. */
export const gemini: ProviderAdapter = {
  name: "gemini",
  nameRule: NAME_RULES.gemini,
  convert: toGemini,
  wire: ({ name, description, converted }) =>
    converted.schema === undefined
      ? { name, description }
      : { name, description, parameters: converted.schema },
};
