// What a rule's pattern and parameter conditions match: text globs over a bounded value, and
// parameter values found by JSON pointer (glob, regex or enum). Pure; evaluate.ts decides with them.
import { textGlob } from "./glob.js";
import type { Effect, PermissionRule } from "./rules.js";

/**
 * Longest value a glob is matched against exactly (a pattern or an argument value); a path is
 * bounded by PATH_MAX_CHARS. Matching is linear, but a bound keeps one call's cost bounded too.
 * Past it the rule fails closed: a deny or ask rule is taken to apply, an allow rule is not.
 */
export const VALUE_MAX_CHARS = 1024 * 1024;
/** Longer than any path the operating system opens (PATH_MAX is 4096 on Linux). */
export const PATH_MAX_CHARS = 4096;
/** A regex (not linear-time) is run on values up to this long; past it the rule fails closed. */
export const REGEX_VALUE_MAX_CHARS = 64 * 1024;

/** A rule `X *` also matches the bare `X` (what a person means by "git status and its forms"). */
export function textMatches(glob: string, value: string, effect: Effect): boolean {
  if (value.length > VALUE_MAX_CHARS) return effect !== "allow";
  if (glob.endsWith(" *") && textGlob(glob.slice(0, -2)).test(value)) return true;
  return textGlob(glob).test(value);
}

export function paramMatches(
  param: NonNullable<PermissionRule["param"]>,
  args: unknown,
  effect: Effect,
): boolean {
  const found = atPointer(args, param.pointer);
  if (!found.ok) return false;
  const values = Array.isArray(found.value) ? found.value : [found.value];
  return values.some((value) => {
    if (param.enum !== undefined) return param.enum.some((e) => JSON.stringify(e) === JSON.stringify(value));
    if (typeof value === "object" && value !== null) return false;
    const text = String(value);
    if (param.glob !== undefined) return textMatches(param.glob, text, effect);
    if (param.regex === undefined) return false;
    if (text.length > REGEX_VALUE_MAX_CHARS) return effect !== "allow";
    return regexOf(param.regex).test(text);
  });
}

const regexes = new Map<string, RegExp>();

/** Compiled once per source (rules are evaluated for every call). */
function regexOf(source: string): RegExp {
  let re = regexes.get(source);
  if (!re) {
    re = new RegExp(source, "u");
    if (regexes.size >= 1024) regexes.clear();
    regexes.set(source, re);
  }
  return re;
}

export function atPointer(value: unknown, pointer: string): { ok: true; value: unknown } | { ok: false } {
  if (pointer === "") return { ok: true, value };
  let node = value;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) return { ok: false };
    node = (node as Record<string, unknown>)[key];
  }
  return { ok: true, value: node };
}
