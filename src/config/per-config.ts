import type { Config } from "./load.js";

/**
 * A value derived from a configuration, made once per Config object. A plane's configuration is
 * replaced, never changed in place (Toolplane.set makes a new one), so the object is the key, and
 * hosts that read the value on every call pay one map lookup.
 */
export function perConfig<T>(derive: (config: Config) => T): (config: Config) => T {
  const made = new WeakMap<Config, T>();
  return (config) => {
    let value = made.get(config);
    if (value === undefined) {
      value = derive(config);
      made.set(config, value);
    }
    return value;
  };
}
