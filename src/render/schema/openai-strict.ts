import type { JsonSchema } from "../../declare/types.js";
import { mergeAllOf } from "./all-of.js";
import { withMovedKeywords } from "./describe.js";
import { rewriteOneOfAndConst } from "./one-of-const.js";
import { resolveLocalRef, toDefsRef } from "./refs.js";
import { dropSafeIntegerBounds } from "./safe-bounds.js";
import {
  type ConvertedSchema,
  type ConvertOptions,
  child,
  isNode,
  type Node,
  type SchemaNote,
} from "./types.js";

// OpenAI Structured Outputs, "Supported schemas": the keywords strict mode accepts. Everything
// else is moved into the description so the model still reads it.
const KEPT = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "anyOf",
  "$ref",
  "$defs",
  "description",
  "pattern",
  "format",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "minItems",
  "maxItems",
]);
export const OPENAI_STRICT_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);
/** Documented limits: nesting depth, total properties, values in one enum. */
export const OPENAI_STRICT_LIMITS = { depth: 10, properties: 5000, enumValues: 1000 };

class NotStrict extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * JSON Schema -> OpenAI strict mode: every object closed (`additionalProperties: false`) and
 * listing every property as required, optional ones made nullable; `oneOf` -> `anyOf`, `allOf`
 * folded, `const` -> `enum`, `definitions` -> `$defs`; unsupported keywords moved into the
 * description. A schema strict mode cannot express (a free-form map, an untyped value) is sent
 * unchanged with `strict: false`, and the reason is noted. Pure: the input is never mutated.
 */
export function toOpenAIStrict(input: JsonSchema, options?: ConvertOptions): ConvertedSchema {
  const notes: SchemaNote[] = [];
  const sink = options?.notes === false ? undefined : notes;
  const bounds: SchemaNote[] = [];
  const schema = dropSafeIntegerBounds(input, sink && bounds);
  const { $schema, ...root } = schema;
  if ($schema !== undefined) sink?.push({ path: "/$schema", change: "removed $schema" });
  sink?.push(...bounds);
  try {
    const ctx: Ctx = { root, notes: sink, properties: 0, steps: 0 };
    const out = convertRoot(root, ctx);
    checkLimits(out);
    if (ctx.properties > OPENAI_STRICT_LIMITS.properties) {
      throw new NotStrict("", `more than ${OPENAI_STRICT_LIMITS.properties} properties`);
    }
    return { schema: out, notes, strict: true };
  } catch (error) {
    if (!(error instanceof NotStrict)) throw error;
    const loose: SchemaNote[] = [];
    if ($schema !== undefined) loose.push({ path: "/$schema", change: "removed $schema" });
    loose.push(...bounds);
    loose.push({ path: error.path, change: `strict mode off: ${error.message}; schema sent as it is` });
    const out = { ...root };
    if (out.type === undefined) {
      out.type = "object";
      loose.push({ path: "", change: 'added type "object" at the root' });
    }
    return { schema: out, notes: loose, strict: false };
  }
}

interface Ctx {
  root: Node;
  /** Undefined when the caller asked for no notes. */
  notes: SchemaNote[] | undefined;
  properties: number;
  steps: number;
}

function convertRoot(root: Node, ctx: Ctx): Node {
  const node = { ...root };
  if (node.type === undefined && node.anyOf === undefined && node.oneOf === undefined) {
    node.type = "object";
    ctx.notes?.push({ path: "", change: 'added type "object" at the root' });
  }
  if (node.type !== "object") throw new NotStrict("", "the root is not a plain object schema");
  const defs = {
    ...(isNode(node.definitions) ? node.definitions : {}),
    ...(isNode(node.$defs) ? node.$defs : {}),
  };
  delete node.definitions;
  delete node.$defs;
  const out = convert(node, "", ctx);
  if (Object.keys(defs).length > 0) {
    if (isNode(root.definitions))
      ctx.notes?.push({ path: "/definitions", change: "renamed definitions to $defs" });
    const converted: Node = {};
    for (const [name, def] of Object.entries(defs)) {
      const where = child("", isNode(root.$defs) && name in root.$defs ? "$defs" : "definitions", name);
      converted[name] = convert(def, where, ctx);
    }
    out.$defs = converted;
  }
  return out;
}

function convert(input: unknown, path: string, ctx: Ctx): Node {
  // folding allOf inlines references, so a self-referencing allOf would never end
  if (path.length > 4000 || ++ctx.steps > 100_000) throw new NotStrict(path, "the schema nests without end");
  if (input === true || (isNode(input) && isEmpty(input)))
    throw new NotStrict(path, "a value of any type cannot be expressed");
  if (!isNode(input)) throw new NotStrict(path, "a boolean schema cannot be expressed");
  let node: Node = { ...input };
  if (Array.isArray(node.allOf)) {
    const branches = node.allOf.map((b) => resolveBranch(b, path, ctx));
    node = mergeAllOf(node, branches);
    ctx.notes?.push({ path, change: "folded allOf into one schema" });
  }
  rewriteOneOfAndConst(node, path, ctx.notes);
  if (node.nullable === true) {
    delete node.nullable;
    node = nullable(node);
    ctx.notes?.push({ path, change: "nullable: true became a null type" });
  }
  if (typeof node.$ref === "string") return convertRef(node, path, ctx);
  if (node.type === undefined) {
    if (isNode(node.properties)) node.type = "object";
    else if (Array.isArray(node.enum)) {
      const t = enumType(node.enum);
      if (t) node.type = t;
    } else if (node.items !== undefined) node.type = "array";
    if (node.type !== undefined) ctx.notes?.push({ path, change: `added type ${JSON.stringify(node.type)}` });
  }
  if (node.type === undefined && !Array.isArray(node.anyOf) && !Array.isArray(node.enum))
    throw new NotStrict(path, "a value without a type cannot be expressed");

  const out: Node = {};
  const moved: Array<[string, unknown]> = [];
  const types = typeList(node.type);
  for (const key in node) {
    const value = node[key];
    if (key === "format" && !(typeof value === "string" && OPENAI_STRICT_FORMATS.has(value))) {
      moved.push([key, value]);
    } else if (!KEPT.has(key)) moved.push([key, value]);
    else if (
      key === "properties" ||
      key === "required" ||
      key === "additionalProperties" ||
      key === "items"
    ) {
      // handled below with the type they belong to
    } else if (key === "anyOf") {
      out.anyOf = (value as unknown[]).map((b, i) => convert(b, child(path, "anyOf", i), ctx));
    } else if (key === "$defs" || key === "description") {
      // $defs only at the root (convertRoot); description is rebuilt below
    } else out[key] = value;
  }
  if (types.includes("object")) convertObject(node, out, path, ctx);
  if (types.includes("array")) convertArray(node, out, path, ctx, moved);
  for (const [key] of moved)
    ctx.notes?.push({ path: child(path, key), change: `moved ${key} into the description` });
  const description = withMovedKeywords(node.description, moved);
  if (description !== "") out.description = description;
  return out;
}

function convertObject(node: Node, out: Node, path: string, ctx: Ctx): void {
  const props = isNode(node.properties) ? node.properties : {};
  const names = Object.keys(props);
  const extra = node.additionalProperties;
  if (names.length === 0 && extra !== false && path !== "") {
    // {type: "object"} alone accepts any keys; closing it would only ever allow {}
    throw new NotStrict(path, "an object with free-form keys cannot be expressed");
  }
  if (extra !== undefined && extra !== false) {
    ctx.notes?.push({
      path: child(path, "additionalProperties"),
      change: "closed the object (extra keys dropped)",
    });
  } else if (extra === undefined) {
    ctx.notes?.push({ path, change: "added additionalProperties: false" });
  }
  const required: unknown[] = Array.isArray(node.required) ? node.required : [];
  const converted: Node = {};
  for (const name of names) {
    ctx.properties++;
    let schema = convert(props[name], child(path, "properties", name), ctx);
    if (!required.includes(name)) {
      schema = nullable(schema);
      ctx.notes?.push({
        path: child(path, "properties", name),
        change: "optional property made required and nullable (null means left out)",
      });
    }
    converted[name] = schema;
  }
  out.properties = converted;
  out.required = names;
  out.additionalProperties = false;
}

function convertArray(node: Node, out: Node, path: string, ctx: Ctx, moved: Array<[string, unknown]>): void {
  const items = node.items;
  if (Array.isArray(items)) {
    out.items = { anyOf: items.map((b, i) => convert(b, child(path, "items", i), ctx)) };
    moved.push(["positions", `a tuple of ${items.length}`]);
    ctx.notes?.push({
      path: child(path, "items"),
      change: "a tuple became an array of any of its item types",
    });
  } else if (items === undefined) {
    throw new NotStrict(path, "an array without an item schema cannot be expressed");
  } else out.items = convert(items, child(path, "items"), ctx);
}

function convertRef(node: Node, path: string, ctx: Ctx): Node {
  const ref = node.$ref as string;
  if (!resolveLocalRef(ctx.root, ref)) throw new NotStrict(path, `the reference ${ref} is not local`);
  const out: Node = { $ref: toDefsRef(ref) };
  if (out.$ref !== ref)
    ctx.notes?.push({ path: child(path, "$ref"), change: `rewrote ${ref} to ${out.$ref}` });
  const moved: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(node)) {
    if (key !== "$ref" && key !== "description") moved.push([key, value]);
  }
  for (const [key] of moved)
    ctx.notes?.push({ path: child(path, key), change: `moved ${key} into the description` });
  const description = withMovedKeywords(node.description, moved);
  if (description !== "") out.description = description;
  return out;
}

function resolveBranch(branch: unknown, path: string, ctx: Ctx): Node {
  if (!isNode(branch)) throw new NotStrict(path, "allOf holds a boolean schema");
  if (typeof branch.$ref !== "string") return branch;
  const target = resolveLocalRef(ctx.root, branch.$ref);
  if (!target) throw new NotStrict(path, `the reference ${branch.$ref} is not local`);
  const { $ref: _ref, ...rest } = branch;
  return { ...target, ...rest };
}

/** The node, also accepting null. */
export function nullable(node: Node): Node {
  if (typeof node.$ref === "string") {
    const { description, ...ref } = node;
    const out: Node = { anyOf: [ref, { type: "null" }] };
    if (description !== undefined) out.description = description;
    return out;
  }
  const out = { ...node };
  if (Array.isArray(out.anyOf)) {
    if (!out.anyOf.some((b) => isNode(b) && b.type === "null")) out.anyOf = [...out.anyOf, { type: "null" }];
    return out;
  }
  if (out.type !== undefined) {
    const types = typeList(out.type);
    if (!types.includes("null")) out.type = [...types, "null"];
  }
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}

function typeList(type: unknown): string[] {
  if (Array.isArray(type)) return type as string[];
  return typeof type === "string" ? [type] : [];
}

function enumType(values: unknown[]): string | undefined {
  const kinds = new Set(
    values.filter((v) => v !== null).map((v) => (Number.isInteger(v) ? "integer" : typeof v)),
  );
  if (kinds.size !== 1) return undefined;
  const [kind] = kinds;
  return kind === "string" || kind === "integer" || kind === "number" || kind === "boolean"
    ? kind
    : undefined;
}

function checkLimits(root: Node): void {
  // the keys down to the node, joined into a path only when a limit is broken
  const keys: Array<string | number> = [];
  const walk = (node: unknown, depth: number) => {
    if (!isNode(node)) return;
    if (depth > OPENAI_STRICT_LIMITS.depth)
      throw new NotStrict(child("", ...keys), `nesting deeper than ${OPENAI_STRICT_LIMITS.depth} levels`);
    if (Array.isArray(node.enum) && node.enum.length > OPENAI_STRICT_LIMITS.enumValues)
      throw new NotStrict(
        child("", ...keys),
        `an enum of more than ${OPENAI_STRICT_LIMITS.enumValues} values`,
      );
    if (isNode(node.properties)) {
      for (const k in node.properties) {
        keys.push("properties", k);
        walk(node.properties[k], depth + 1);
        keys.length -= 2;
      }
    }
    if (node.items !== undefined) {
      keys.push("items");
      walk(node.items, depth + 1);
      keys.length -= 1;
    }
    if (Array.isArray(node.anyOf)) {
      for (let i = 0; i < node.anyOf.length; i++) {
        keys.push("anyOf", i);
        walk(node.anyOf[i], depth);
        keys.length -= 2;
      }
    }
    if (isNode(node.$defs)) {
      for (const k in node.$defs) {
        keys.push("$defs", k);
        walk(node.$defs[k], 1);
        keys.length -= 2;
      }
    }
  };
  walk(root, 1);
}

function isEmpty(node: Node): boolean {
  for (const key in node) if (Object.hasOwn(node, key)) return false;
  return true;
}
