// A call's arguments in the tool's own shape, read from the tool's own parameter schema (not from
// a catalog): what a provider's rendering made the model send that the schema refuses, and that
// has one meaning, is put back. The host applies it to every call, whichever catalog it came from,
// so a harness has no step to remember (docs/execute.md#calls-from-a-rendered-catalog).
import type { JsonSchema } from "../declare/types.js";
import { resolveLocalRef } from "./schema/refs.js";
import { isNode, type Node } from "./schema/types.js";

/** Schemas that may describe one place of a value (a union's branches); past this, left as is. */
const MAX_VIEWS = 64;

/**
 * The arguments with:
 * - a `null` at an optional property whose schema does not take null removed: OpenAI's strict
 *   mode makes every optional property required and nullable, so the model sends null for "left
 *   out" (a property that takes null, or a required one, keeps its null);
 * - an enum (or const) value sent as a string (`"3"`) given its own value back (`3`) where the
 *   schema has that value and not the string: Gemini's enums are strings.
 * Walks the value (already bounded in depth and size by parseArgs) beside the schema: local
 * `$ref`s, `allOf`, and the branches of `anyOf`/`oneOf` (a null is dropped only when every branch
 * that names the property agrees). Pure: returns `args` itself when nothing changed, else a copy.
 */
export function restoreArgs(parameters: JsonSchema, args: unknown): unknown {
  return restoreAt(parameters, [parameters], args);
}

function restoreAt(root: Node, schemas: readonly unknown[], value: unknown): unknown {
  const views = viewsOf(root, schemas);
  if (views === undefined || views.length === 0) return value;
  if (typeof value === "string") return enumValue(views, value);
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = restoreAt(root, itemSchemas(views, i), item);
      if (next !== item) {
        out ??= value.slice();
        out[i] = next;
      }
    });
    return out ?? value;
  }
  if (value === null || typeof value !== "object") return value;
  const obj = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(obj)) {
    const declared: unknown[] = [];
    let keepNull = false;
    for (const v of views) {
      const props = v.properties;
      if (!isNode(props) || !Object.hasOwn(props, key)) continue;
      declared.push(props[key]);
      if (obj[key] === null && (requires(v, key) || takesNull(root, props[key], 0))) keepNull = true;
    }
    if (declared.length === 0) continue;
    if (obj[key] === null) {
      if (keepNull) continue;
      out ??= { ...obj };
      delete out[key];
      continue;
    }
    const next = restoreAt(root, declared, obj[key]);
    if (next !== obj[key]) {
      out ??= { ...obj };
      out[key] = next;
    }
  }
  return out ?? value;
}

/**
 * Every object schema that speaks for this place: the schemas themselves with references
 * resolved and `allOf`, `anyOf` and `oneOf` opened. Undefined when there are too many to trust.
 */
function viewsOf(root: Node, schemas: readonly unknown[]): Node[] | undefined {
  const out: Node[] = [];
  const todo = [...schemas];
  let steps = 0;
  while (todo.length > 0) {
    if (++steps > MAX_VIEWS * 4 || out.length > MAX_VIEWS) return undefined;
    const s = deref(root, todo.pop());
    if (s === undefined) continue;
    out.push(s);
    for (const key of ["allOf", "anyOf", "oneOf"] as const)
      if (Array.isArray(s[key])) todo.push(...(s[key] as unknown[]));
  }
  return out;
}

function deref(root: Node, schema: unknown): Node | undefined {
  let s = schema;
  for (let hops = 0; isNode(s) && typeof s.$ref === "string"; hops++) {
    if (hops >= 8) return undefined;
    const target = resolveLocalRef(root, s.$ref);
    if (target === undefined) return undefined;
    // sibling keywords of a $ref still apply: keep them beside the target's
    const { $ref: _ref, ...rest } = s;
    s = Object.keys(rest).length === 0 ? target : { allOf: [target], ...rest };
  }
  return isNode(s) ? s : undefined;
}

function itemSchemas(views: readonly Node[], index: number): unknown[] {
  const out: unknown[] = [];
  for (const v of views) {
    if (Array.isArray(v.prefixItems) && index < v.prefixItems.length) out.push(v.prefixItems[index]);
    else if (Array.isArray(v.items)) {
      if (index < v.items.length) out.push(v.items[index]);
    } else if (v.items !== undefined && typeof v.items === "object") out.push(v.items);
  }
  return out;
}

function requires(schema: Node, key: string): boolean {
  return Array.isArray(schema.required) && schema.required.includes(key);
}

/** Whether null is a value the schema takes (when unsure: yes, so the null is left for validation). */
function takesNull(root: Node, schema: unknown, depth: number): boolean {
  if (depth > 16) return true;
  if (schema === true || schema === undefined) return true;
  const s = deref(root, schema);
  if (s === undefined) return schema !== false;
  if (s.nullable === true) return true;
  if (s.type === "null" || (Array.isArray(s.type) && s.type.includes("null"))) return true;
  if (Array.isArray(s.enum)) return s.enum.includes(null);
  if ("const" in s) return s.const === null;
  for (const key of ["anyOf", "oneOf"] as const)
    if (Array.isArray(s[key])) return (s[key] as unknown[]).some((b) => takesNull(root, b, depth + 1));
  if (Array.isArray(s.allOf)) return (s.allOf as unknown[]).every((b) => takesNull(root, b, depth + 1));
  // no type, no enum, no union: any value, null included
  return s.type === undefined;
}

/** A string that is the JSON text of a non-string enum (or const) value the schemas allow, as that value. */
function enumValue(views: readonly Node[], value: string): unknown {
  let found: unknown;
  for (const v of views) {
    const options = Array.isArray(v.enum) ? v.enum : "const" in v ? [v.const] : undefined;
    if (options === undefined) continue;
    if (options.includes(value)) return value;
    for (const option of options)
      if (typeof option !== "string" && option !== null && JSON.stringify(option) === value) found = option;
  }
  return found === undefined ? value : found;
}
