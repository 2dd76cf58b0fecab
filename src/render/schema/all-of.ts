import type { Node } from "./types.js";
import { isNode } from "./types.js";

/**
 * Folds `allOf` branches into one schema: properties are united (a property in several branches
 * is folded the same way), `required` is the union, and for any other keyword the first value
 * wins. Branches are given already resolved; the result has no `allOf`.
 */
export function mergeAllOf(node: Node, branches: readonly Node[]): Node {
  const { allOf: _allOf, ...base } = node;
  let out: Node = { ...base };
  for (const branch of branches) out = mergeTwo(out, branch);
  return out;
}

function mergeTwo(a: Node, b: Node): Node {
  const out: Node = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (key === "properties" && isNode(value)) {
      const props: Node = { ...(isNode(out.properties) ? out.properties : {}) };
      for (const [name, schema] of Object.entries(value)) {
        const existing = props[name];
        props[name] = isNode(existing) && isNode(schema) ? mergeTwo(existing, schema) : (existing ?? schema);
      }
      out.properties = props;
    } else if (key === "required" && Array.isArray(value)) {
      const req = Array.isArray(out.required) ? [...(out.required as string[])] : [];
      for (const name of value) if (!req.includes(name)) req.push(name);
      out.required = req;
    } else if (key === "allOf" && Array.isArray(value)) {
      out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), ...value];
    } else if (!(key in out)) {
      out[key] = value;
    }
  }
  if (out.type === undefined && isNode(out.properties)) out.type = "object";
  return out;
}
