import type { Node, SchemaNote } from "./types.js";

/**
 * The two rewrites OpenAI strict mode and Gemini both need: `oneOf` becomes `anyOf` (neither
 * accepts oneOf; for tool arguments the difference, "exactly one", is not enforceable anyway) and
 * `const` becomes a one-value `enum`. `node` is the caller's own copy and is changed in place.
 */
export function rewriteOneOfAndConst(node: Node, path: string, notes: SchemaNote[] | undefined): void {
  if (Array.isArray(node.oneOf)) {
    node.anyOf = [...node.oneOf, ...(Array.isArray(node.anyOf) ? node.anyOf : [])];
    delete node.oneOf;
    notes?.push({ path, change: "oneOf became anyOf" });
  }
  if ("const" in node) {
    node.enum = [node.const];
    delete node.const;
    notes?.push({ path, change: "const became a one-value enum" });
  }
}
