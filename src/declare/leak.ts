/** Keys that exist only on the host side of a tool. */
export const HOST_KEYS = [
  "output",
  "outputSchema",
  "execute",
  "timeoutMs",
  "concurrencySafe",
  "display",
  "permission",
  "selection",
  "spill",
  "host",
  "namespace",
];

/**
 * Host keys a provider's tool form publishes by design: an MCP tools/list entry carries the
 * output schema and the display title (2025-06-18), which no model request of another provider may.
 */
export function publishedHostKeys(provider: string): readonly string[] {
  // `title`: the display title, the name an MCP client shows people
  return provider === "mcp" ? ["outputSchema", "title"] : [];
}

/**
 * Walks a rendered request and lists every host-only key or value it finds: a function, a host
 * key (outside a `properties` map, where keys are the model's parameter names, and not `allowed`)
 * or a sentinel.
 */
export function findLeaks(
  value: unknown,
  sentinels: readonly unknown[] = [],
  /** Host keys this request form carries by design (an MCP tools/list entry's `outputSchema`). */
  allowed: readonly string[] = [],
): string[] {
  const leaks: string[] = [];
  const walk = (node: unknown, path: string, keysAreParams: boolean) => {
    if (typeof node === "function") leaks.push(`${path}: function`);
    else if (sentinels.includes(node)) leaks.push(`${path}: sentinel ${String(node)}`);
    else if (typeof node === "string" && sentinels.some((s) => typeof s === "string" && node.includes(s))) {
      leaks.push(`${path}: sentinel text`);
    } else if (Array.isArray(node)) {
      node.forEach((v, i) => {
        walk(v, `${path}/${i}`, false);
      });
    } else if (node !== null && typeof node === "object") {
      for (const [key, v] of Object.entries(node)) {
        const published = !keysAreParams && allowed.includes(key);
        if (!keysAreParams && HOST_KEYS.includes(key) && !published) leaks.push(`${path}/${key}: host key`);
        // a published text (an MCP entry's display title) may hold what the host declared
        if (published && typeof v === "string") continue;
        walk(v, `${path}/${key}`, key === "properties" && !keysAreParams);
      }
    }
  };
  walk(value, "", false);
  return leaks;
}
