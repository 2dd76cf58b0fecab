import type { Node } from "./types.js";
import { isNode } from "./types.js";

/** Resolves a local reference (`#`, `#/definitions/x`, `#/$defs/x`, any `#/...` pointer). */
export function resolveLocalRef(root: Node, ref: string): Node | undefined {
  if (!ref.startsWith("#")) return undefined;
  const pointer = ref.slice(1);
  if (pointer === "") return root;
  if (!pointer.startsWith("/")) return undefined;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isNode(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return isNode(node) ? node : undefined;
}

/** `#/definitions/x` -> `#/$defs/x`: OpenAI documents `$defs`. */
export function toDefsRef(ref: string): string {
  return ref.replace(/^#\/definitions\//, "#/$defs/");
}
