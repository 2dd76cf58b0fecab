import type { JsonSchema } from "../../declare/types.js";
import { newAjv } from "../../util/ajv.js";

/** Keywords whose values are data, not schemas: a "$ref" inside them is not a reference. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);

/**
 * The first `$ref` of a schema that cannot be resolved inside it, with why; undefined when every
 * reference resolves. A tool whose schema has one can be listed but never called (its validator
 * fails to build), so it is left out instead.
 *
 * Local JSON pointers (`#/definitions/x`), nearly every real case, are resolved by walking the
 * document, which costs nothing like building a validator; anything else (an anchor, a relative or
 * remote URI) is settled by compiling the schema once with a throwaway ajv, which never fetches.
 */
export function unresolvableRef(schema: JsonSchema): string | undefined {
  const refs = collectRefs(schema);
  if (refs.length === 0) return undefined;
  let needsCompile = false;
  for (const ref of refs) {
    if (ref === "#") continue;
    if (!ref.startsWith("#/")) {
      needsCompile = true;
      continue;
    }
    if (resolvePointer(schema, ref) === undefined)
      return `$ref "${short(ref)}" points to nothing in the schema`;
  }
  return needsCompile ? compileProblem(schema) : undefined;
}

/** True when the schema has a `$ref` anywhere (a walk that stops at the first). */
export function hasRef(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasRef);
  if (node === null || typeof node !== "object") return false;
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string") return true;
    if (!DATA_KEYWORDS.has(key) && hasRef(value)) return true;
  }
  return false;
}

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, out);
    return out;
  }
  if (node === null || typeof node !== "object") return out;
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string") out.push(value);
    else if (!DATA_KEYWORDS.has(key)) collectRefs(value, out);
  }
  return out;
}

/** RFC 6901 pointer in a URI fragment: percent-decoded, then `~1` -> `/`, `~0` -> `~`. */
function resolvePointer(root: unknown, ref: string): unknown {
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "object" || typeof node === "boolean" ? (node ?? undefined) : undefined;
}

function compileProblem(schema: JsonSchema): string | undefined {
  // its own instance: a schema's $id must not land in the registry the real validators share
  const ajv = newAjv({ strict: false, validateSchema: false });
  try {
    ajv.compile(schema);
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return `a $ref cannot be resolved (${short(message)})`;
  }
}

function short(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
