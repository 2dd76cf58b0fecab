import { sha256 } from "../../util/hash.js";

/** What a provider accepts as a function name, from its API reference. */
export interface NameRule {
  pattern: RegExp;
  max: number;
  /** Characters outside the pattern become this. */
  replace: RegExp;
  /** A first character the pattern forbids gets this prefix. */
  firstOk?: RegExp;
}

export const NAME_RULES = {
  // Anthropic Messages API and OpenAI function names: ^[a-zA-Z0-9_-]{1,64}$
  strictAscii: { pattern: /^[a-zA-Z0-9_-]{1,64}$/, max: 64, replace: /[^a-zA-Z0-9_-]/g },
  // Gemini FunctionDeclaration.name: starts with a letter or underscore; a-z, A-Z, 0-9, _ . : -; max 64
  gemini: {
    pattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
    max: 64,
    replace: /[^a-zA-Z0-9_.:-]/g,
    firstOk: /^[a-zA-Z_]/,
  },
  // MCP tool names: 1-128 characters of A-Z a-z 0-9 _ - .
  mcp: { pattern: /^[a-zA-Z0-9_.-]{1,128}$/, max: 128, replace: /[^a-zA-Z0-9_.-]/g },
} satisfies Record<string, NameRule>;

/**
 * The name as the provider accepts it: disallowed characters become `_`, and a name too long is
 * cut and given a short hash of the original so two long names stay apart. Pure and stable.
 */
export function wireName(name: string, rule: NameRule): string {
  if (rule.pattern.test(name)) return name;
  let out = name.replace(rule.replace, "_");
  if (out === "") out = "_";
  if (rule.firstOk && !rule.firstOk.test(out)) out = `_${out}`;
  if (out.length > rule.max) out = `${out.slice(0, rule.max - 9)}_${sha256(name).slice(0, 8)}`;
  return out;
}
