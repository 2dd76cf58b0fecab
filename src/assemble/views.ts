// Views of one Toolplane that share its registries, discovery, configuration, MCP connections and
// spill store, and own some state of their own (a session's deferral and reads; a scope chain).
// A prototype view rather than a second constructor: everything not given here reads through to
// the plane, so the views can never disagree about what they share.

/** A view of `base` whose own properties are `own` (each read-only); every other read goes to `base`. */
export function viewOf<T extends object>(base: T, own: Record<string, unknown>): T {
  const props: PropertyDescriptorMap = {};
  for (const [key, value] of Object.entries(own)) props[key] = { value };
  return Object.create(base, props) as T;
}

/** The key one scope chain is kept under: its layers, nearest first, joined. */
export function chainKey(chain: readonly string[]): string {
  return chain.join(">");
}
