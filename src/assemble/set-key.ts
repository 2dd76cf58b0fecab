// `Toolplane.set(key, value)`: a key changed on a live plane. The configuration is loaded again
// with the change as one more `--set` item, so it is validated, layered and reported (`toolplane
// config`, `plane.config.values`) exactly as a key given at open is.
import {
  type Config,
  ConfigError,
  type ConfigKey,
  keySpec,
  type LoadOptions,
  loadConfig,
} from "../config/index.js";

/**
 * Keys read once when a Toolplane opens (they choose its providers, its spill folder, its watcher
 * and the registry's read limit): changing one needs a new Toolplane, so set() refuses it rather
 * than accept a value that would not apply.
 */
export const OPEN_TIME_KEYS: readonly ConfigKey[] = [
  "tools.modules",
  "tools.examples",
  "mcp.servers",
  "skills.paths",
  "skills.disabled",
  "skills.auditIntervalMs",
  "scopes.restrictions",
  "trust.projects",
  "tools.providerTimeoutMs",
  "results.spillDir",
  "results.spillMaxAgeHours",
];

export interface KeyChange {
  config: Config;
  /** The set item that made it, kept for the next change (changes add up). */
  item: string;
  /** What the model sees may change: the catalog must be read again (an invalidation). */
  refresh: boolean;
}

/** The configuration with `key` set to `value` on top of `options` and the earlier changes. */
export function changeKey(
  options: LoadOptions,
  earlier: readonly string[],
  key: string,
  value: unknown,
): KeyChange {
  const spec = keySpec(key);
  if (!spec)
    throw new ConfigError(
      "plane.set",
      key,
      "is not a configuration key (run `toolplane config` to list them)",
    );
  if ((OPEN_TIME_KEYS as readonly string[]).includes(key))
    throw new ConfigError(
      "plane.set",
      key,
      "is read when the Toolplane opens: open a new Toolplane to change it",
    );
  const item = `${key}=${JSON.stringify(value)}`;
  const config = loadConfig({ ...options, set: [...(options.set ?? []), ...earlier, item] });
  // a rule that denies a whole tool takes it out of the catalog, so permission rules count too
  return { config, item, refresh: spec.kind === "assembly" || key === "permissions.rules" };
}
