import { toAnthropic } from "../schema/anthropic.js";
import { NAME_RULES } from "../schema/names.js";
import type { ProviderAdapter } from "../types.js";

/** Messages API `tools[]`: `{name, description, input_schema}`. */
export const anthropic: ProviderAdapter = {
  name: "anthropic",
  nameRule: NAME_RULES.strictAscii,
  convert: toAnthropic,
  wire: ({ name, description, converted }) => ({ name, description, input_schema: converted.schema }),
};
