export { ConfigError } from "./errors.js";
export {
  CONFIG_KEY_NAMES,
  CONFIG_KEYS,
  type ConfigKey,
  envName,
  type KeyKind,
  type KeySpec,
  keySpec,
} from "./keys.js";
export {
  CONFIG_LAYERS,
  type Config,
  type ConfigLayer,
  type ConfigValue,
  type LoadOptions,
  loadConfig,
  parseSetArg,
  parseValue,
} from "./load.js";
