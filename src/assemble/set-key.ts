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

/** A plane's configuration: the current one, what it was opened with, and the set() changes since. */
export interface ConfigHolder {
  now: Config;
  options: LoadOptions;
  changes: string[];
}

/** set(): the holder takes the change; true when the catalog must be read again. */
export function setKey(holder: ConfigHolder, key: string, value: unknown): boolean {
  const change = changeKey(holder.options, holder.changes, key, value);
  holder.now = change.config;
  holder.changes.push(change.item);
  return change.refresh;
}

export interface FileReload {
  /** Keys whose value changed, in key order. */
  changed: string[];
  /** Changed keys read only at open: nothing was applied; a new Toolplane (a restart) applies them. */
  needsRestart: string[];
  refresh: boolean;
}

/**
 * The configuration files read again, with the same options and set() changes on top, compared
 * key by key with the holder's; applied to the holder unless a changed key needs a new plane.
 * Throws ConfigError when a file does not load (the holder keeps its configuration).
 */
export function reloadFiles(holder: ConfigHolder): FileReload {
  const { options, changes: earlier, now: current } = holder;
  const next = loadConfig({ ...options, set: [...(options.set ?? []), ...earlier] });
  const changed = Object.keys(current.values)
    .filter(
      (key) => JSON.stringify(current.get(key as ConfigKey)) !== JSON.stringify(next.get(key as ConfigKey)),
    )
    .sort();
  const needsRestart = changed.filter((key) => (OPEN_TIME_KEYS as readonly string[]).includes(key));
  const apply = changed.length > 0 && needsRestart.length === 0;
  if (apply) holder.now = next;
  return {
    changed,
    needsRestart,
    refresh: apply && changed.some((key) => keySpec(key)?.kind === "assembly" || key === "permissions.rules"),
  };
}
