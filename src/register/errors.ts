export class DuplicateProviderError extends Error {
  constructor(layer: string, name: string, existing: string) {
    super(
      `layer "${layer}" already has a provider named "${existing}"; the new provider "${name}" needs another name (provider names are unique within a layer)`,
    );
    this.name = "DuplicateProviderError";
  }
}

/** A provider handed over an entry that breaks the entry rules: fail fast, naming both. */
export class MalformedEntryError extends Error {
  constructor(
    readonly provider: string,
    readonly entry: string,
    reason: string,
  ) {
    super(`provider "${provider}" gave a malformed entry "${entry}": ${reason}`);
    this.name = "MalformedEntryError";
  }
}

/**
 * A provider that has nothing to list right now and will say so when that changes: it calls its
 * handle's `changed()` on every change of its state (a start that lands or fails, a retry that
 * begins). The registry remembers this rejection until then instead of asking again on every
 * read, so a read pays nothing for a provider that is down (an MCP server in its backoff).
 */
export class ProviderUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderUnavailable";
  }
}
