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
