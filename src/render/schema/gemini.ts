import type { JsonSchema } from "../../declare/types.js";
import { mergeAllOf } from "./all-of.js";
import { withMovedKeywords } from "./describe.js";
import { rewriteOneOfAndConst } from "./one-of-const.js";
import { resolveLocalRef } from "./refs.js";
import { dropSafeIntegerBounds } from "./safe-bounds.js";
import {
  type ConvertedSchema,
  type ConvertOptions,
  child,
  isNode,
  type Node,
  type SchemaNote,
} from "./types.js";

// Gemini function declarations take "a select subset of an OpenAPI 3.0 schema object". These are
// the fields its Schema documents and that the Developer API takes; the rest go into the
// description (title, default, minLength, pattern, ...) or are dropped ($schema, definitions).
export const GEMINI_FIELDS = new Set([
  "type",
  "format",
  "description",
  "nullable",
  "enum",
  "items",
  "minItems",
  "maxItems",
  "properties",
  "required",
  "propertyOrdering",
  "minimum",
  "maximum",
  "anyOf",
]);
export const GEMINI_TYPES = new Set(["string", "number", "integer", "boolean", "array", "object"]);
/** Formats per type; the Developer API rejects a request with any other. */
export const GEMINI_FORMATS: Record<string, ReadonlySet<string>> = {
  string: new Set(["enum", "date-time"]),
  number: new Set(["float", "double", "enum"]),
  integer: new Set(["int32", "int64", "enum"]),
};
const DROPPED = new Set(["$schema", "$id", "$comment", "definitions", "$defs", "additionalProperties"]);

interface Ctx {
  root: Node;
  /** Undefined when the caller asked for no notes. */
  notes: SchemaNote[] | undefined;
}

/**
 * JSON Schema -> Gemini's OpenAPI subset: local `$ref` inlined (a recursive one is cut, noted),
 * `allOf` folded, `oneOf` -> `anyOf`, `const` -> `enum`, enum values written as strings, null
 * branches and `["x","null"]` types -> `nullable`, `additionalProperties` dropped. The root is left
 * out when the tool takes no parameters (Gemini rejects an object without properties). Pure.
 */
export function toGemini(input: JsonSchema, options?: ConvertOptions): ConvertedSchema {
  const notes = options?.notes === false ? undefined : [];
  const schema = dropSafeIntegerBounds(input, notes);
  const ctx: Ctx = { root: schema, notes };
  const out = convert(schema, "", ctx, []);
  if (!isNode(out.properties) || Object.keys(out.properties).length === 0) {
    ctx.notes?.push({ path: "", change: "no parameters: parameters left out" });
    return { schema: undefined, notes: ctx.notes ?? [] };
  }
  if (out.type === undefined) out.type = "object";
  return { schema: out, notes: ctx.notes ?? [] };
}

function convert(input: unknown, path: string, ctx: Ctx, refs: readonly string[]): Node {
  if (!isNode(input)) {
    if (input === false)
      ctx.notes?.push({ path, change: "a schema that accepts nothing became an untyped value" });
    return {};
  }
  let node: Node = input;
  if (typeof node.$ref === "string") {
    const ref = node.$ref;
    const target = resolveLocalRef(ctx.root, ref);
    const { $ref: _ref, ...rest } = node;
    if (!target) {
      ctx.notes?.push({ path: child(path, "$ref"), change: `dropped the non-local reference ${ref}` });
      node = rest;
    } else if (refs.includes(ref)) {
      ctx.notes?.push({ path: child(path, "$ref"), change: `cut the recursive reference ${ref}` });
      const text = typeof rest.description === "string" ? `${rest.description} ` : "";
      return { description: `${text}(same shape as its parent, not expanded)` };
    } else {
      ctx.notes?.push({ path: child(path, "$ref"), change: `inlined ${ref}` });
      const { definitions: _d, $defs: _dd, ...resolved } = target;
      return convert({ ...resolved, ...rest }, path, ctx, [...refs, ref]);
    }
  }
  node = { ...node };
  if (Array.isArray(node.allOf)) {
    const inlined: string[] = [];
    const branches = node.allOf.map((b, i) => {
      if (isNode(b) && typeof b.$ref === "string") {
        if (refs.includes(b.$ref)) {
          ctx.notes?.push({ path: child(path, "allOf", i), change: `cut the recursive reference ${b.$ref}` });
          return {};
        }
        inlined.push(b.$ref);
      }
      return inlineRef(b, ctx);
    });
    node = mergeAllOf(node, branches);
    ctx.notes?.push({ path, change: "folded allOf into one schema" });
    return convert(node, path, ctx, [...refs, ...inlined]);
  }
  rewriteOneOfAndConst(node, path, ctx.notes);
  const out: Node = {};
  const moved: Array<[string, unknown]> = [];
  let isNullable = node.nullable === true;

  // type: one name; "null" becomes nullable; several become anyOf
  let types = Array.isArray(node.type)
    ? [...(node.type as string[])]
    : typeof node.type === "string"
      ? [node.type]
      : [];
  if (types.includes("null")) {
    isNullable = true;
    types = types.filter((t) => t !== "null");
    ctx.notes?.push({ path: child(path, "type"), change: "a null type became nullable: true" });
  }
  if (types.length > 1) {
    ctx.notes?.push({ path: child(path, "type"), change: "several types became anyOf" });
    const { type: _t, ...rest } = node;
    node = {
      ...rest,
      anyOf: [...types.map((t) => ({ type: t })), ...(Array.isArray(node.anyOf) ? node.anyOf : [])],
    };
    types = [];
  }
  let type = types[0];
  if (type === undefined && isNode(node.properties)) type = "object";
  if (type !== undefined && !GEMINI_TYPES.has(type)) {
    moved.push(["type", type]);
    type = undefined;
  }

  if (Array.isArray(node.anyOf)) {
    const branches: Node[] = [];
    node.anyOf.forEach((b, i) => {
      if (
        isNode(b) &&
        (b.type === "null" || (Array.isArray(b.enum) && b.enum.length === 1 && b.enum[0] === null))
      ) {
        isNullable = true;
        ctx.notes?.push({ path: child(path, "anyOf", i), change: "a null branch became nullable: true" });
      } else branches.push(convert(b, child(path, "anyOf", i), ctx, refs));
    });
    if (branches.length === 1 && type === undefined) {
      ctx.notes?.push({ path: child(path, "anyOf"), change: "a single remaining branch replaced anyOf" });
      const only = branches[0]!;
      for (const [k, v] of Object.entries(only))
        if (k !== "description" || node.description === undefined) out[k] = v;
      if (only.nullable === true) isNullable = true;
    } else if (branches.length > 0) out.anyOf = branches;
  }

  if (Array.isArray(node.enum)) {
    const values = node.enum.filter((v) => v !== null);
    if (values.length < node.enum.length) {
      isNullable = true;
      ctx.notes?.push({ path: child(path, "enum"), change: "null in enum became nullable: true" });
    }
    const kinds = new Set(values.map((v) => typeof v));
    if (values.some((v) => typeof v !== "string")) {
      ctx.notes?.push({ path: child(path, "enum"), change: "enum values written as strings" });
      if (kinds.size === 1 && kinds.has("number") && (type === "integer" || type === "number")) {
        out.format = "enum";
      } else if (type !== "string") {
        if (type !== undefined) moved.push(["type", type]);
        type = "string";
      }
    } else if (type === undefined) type = "string";
    out.enum = values.map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
  }
  if (type !== undefined) out.type = type;

  // for...in, not Object.entries: no [key, value] pair per key (node is a plain copy of our own)
  for (const key in node) {
    const value = node[key];
    if (key === "type" || key === "enum" || key === "anyOf" || key === "nullable" || key === "description")
      continue;
    if (DROPPED.has(key)) {
      ctx.notes?.push({ path: child(path, key), change: `dropped ${key}` });
      continue;
    }
    if (key === "properties" || key === "required" || key === "items") continue;
    if (key === "format") {
      const allowed = type !== undefined ? GEMINI_FORMATS[type] : undefined;
      if (typeof value === "string" && allowed?.has(value) && out.format === undefined) out.format = value;
      else if (out.format !== value) moved.push([key, value]);
      continue;
    }
    if (!GEMINI_FIELDS.has(key)) {
      moved.push([key, value]);
      continue;
    }
    if ((key === "minItems" || key === "maxItems") && type !== "array") moved.push([key, value]);
    else if ((key === "minimum" || key === "maximum") && type !== "number" && type !== "integer")
      moved.push([key, value]);
    else if (key === "propertyOrdering") continue;
    else out[key] = value;
  }

  if (type === "object" || (type === undefined && isNode(node.properties)))
    convertObject(node, out, path, ctx, refs);
  if (type === "array") convertArray(node, out, path, ctx, refs, moved);
  if (isNullable) out.nullable = true;
  for (const [key] of moved)
    ctx.notes?.push({ path: child(path, key), change: `moved ${key} into the description` });
  const description = withMovedKeywords(node.description, moved);
  if (description !== "") out.description = description;
  return out;
}

function convertObject(node: Node, out: Node, path: string, ctx: Ctx, refs: readonly string[]): void {
  const props = isNode(node.properties) ? node.properties : {};
  const names = Object.keys(props);
  if (names.length === 0) {
    if (path !== "") {
      delete out.type;
      ctx.notes?.push({
        path,
        change: "a free-form object became an untyped value (Gemini needs properties)",
      });
    }
    return;
  }
  const converted: Node = {};
  for (const name of names)
    converted[name] = convert(props[name], child(path, "properties", name), ctx, refs);
  out.properties = converted;
  if (Array.isArray(node.required)) {
    const required = (node.required as string[]).filter((r) => names.includes(r));
    if (required.length < node.required.length)
      ctx.notes?.push({
        path: child(path, "required"),
        change: "dropped required names that are not properties",
      });
    if (required.length > 0) out.required = required;
  }
}

function convertArray(
  node: Node,
  out: Node,
  path: string,
  ctx: Ctx,
  refs: readonly string[],
  moved: Array<[string, unknown]>,
): void {
  const items = node.items;
  if (Array.isArray(items)) {
    const branches = items.map((b, i) => convert(b, child(path, "items", i), ctx, refs));
    out.items = branches.length === 1 ? branches[0] : { anyOf: branches };
    moved.push(["positions", `a tuple of ${items.length}`]);
    ctx.notes?.push({
      path: child(path, "items"),
      change: "a tuple became an array of any of its item types",
    });
  } else if (items === undefined || items === true) {
    out.items = {};
    ctx.notes?.push({
      path: child(path, "items"),
      change: "added an untyped item schema (Gemini needs items)",
    });
  } else out.items = convert(items, child(path, "items"), ctx, refs);
}

function inlineRef(branch: unknown, ctx: Ctx): Node {
  if (!isNode(branch)) return {};
  if (typeof branch.$ref !== "string") return branch;
  const target = resolveLocalRef(ctx.root, branch.$ref);
  const { $ref: _ref, ...rest } = branch;
  if (!target) return rest;
  const { definitions: _d, $defs: _dd, ...resolved } = target;
  return { ...resolved, ...rest };
}
