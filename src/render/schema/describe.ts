import type { Node } from "./types.js";

/**
 * Keywords a provider cannot take still say something the model should know (a minimum length, a
 * default); they are kept as text at the end of the node's description instead of being lost.
 */
export function withMovedKeywords(description: unknown, moved: ReadonlyArray<[string, unknown]>): string {
  const base = typeof description === "string" ? description : "";
  if (moved.length === 0) return base;
  const text = moved.map(([key, value]) => `${key}: ${compact(value)}`).join("; ");
  return base === "" ? `(${text})` : `${base} (${text})`;
}

function compact(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  const json = JSON.stringify(value);
  return json === undefined ? String(value) : json;
}

/** Sets `description` on a node only when there is text, keeping the node's other keys. */
export function setDescription(node: Node, text: string): Node {
  if (text !== "") node.description = text;
  else delete node.description;
  return node;
}
