export { ConfigError } from "./errors.js";
export {
  CONFIG_KEY_NAMES,
  CONFIG_KEYS,
  type ConfigKey,
  envName,
  type KeyKind,
  type KeySpec,
  keySchema,
  keySpec,
  MAX_TIMER_MS,
} from "./keys.js";
export {
  CONFIG_FILE_MAX_BYTES,
  CONFIG_LAYERS,
  type Config,
  type ConfigLayer,
  type ConfigValue,
  type IgnoredKey,
  type LoadOptions,
  loadConfig,
  type ProjectTrust,
  parseSetArg,
  parseValue,
  projectTrustOf,
  readConfigText,
  realpathOr,
} from "./load.js";
export { perConfig } from "./per-config.js";
export { recordTrust, type TrustChange } from "./trust-record.js";
export { APPLIED_AS_IS, type IgnoredPart, PROJECT_GATES } from "./untrusted.js";
