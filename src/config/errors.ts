/** A configuration value that cannot be used: names where it came from, the key and what was expected. */
export class ConfigError extends Error {
  constructor(
    readonly source: string,
    readonly key: string,
    detail: string,
  ) {
    super(`${source}: ${key === "" ? "" : `"${key}" `}${detail}`);
    this.name = "ConfigError";
  }
}
