import { readFileSync } from "node:fs";
import path from "node:path";
import { nearest } from "../util/nearest.js";
import { findProjectRoot, toolplaneHome } from "../util/paths.js";
import { ConfigError } from "./errors.js";
import { CONFIG_KEY_NAMES, CONFIG_KEYS, type ConfigKey, envName, type KeyKind, keySpec } from "./keys.js";

/** Highest first. */
export const CONFIG_LAYERS = ["cli", "env", "project", "user", "default"] as const;
export type ConfigLayer = (typeof CONFIG_LAYERS)[number];

export interface ConfigValue {
  value: unknown;
  layer: ConfigLayer;
  kind: KeyKind;
  /** The file or variable that set it, when not a default. */
  source?: string;
  /** For keys merged across layers (permissions.rules): what each layer gave, highest first. */
  contributions?: Array<{ layer: ConfigLayer; source: string; value: unknown }>;
}

export interface LoadOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** `KEY=VALUE` pairs from `--set`; VALUE is JSON when it parses, else a string. */
  set?: readonly string[];
}

export interface Config {
  readonly cwd: string;
  readonly projectRoot: string;
  readonly home: string;
  readonly values: Readonly<Record<ConfigKey, ConfigValue>>;
  get<K extends ConfigKey>(key: K): unknown;
  /** The values of one kind, by key: run-time values go to tools, assembly values to rendering. */
  ofKind(kind: KeyKind): Record<string, unknown>;
}

export function loadConfig(options: LoadOptions): Config {
  const env = options.env ?? process.env;
  const cwd = path.resolve(options.cwd);
  const projectRoot = findProjectRoot(cwd);
  const home = toolplaneHome(env);
  const values = {} as Record<ConfigKey, ConfigValue>;
  for (const key of CONFIG_KEY_NAMES) {
    values[key] = { value: CONFIG_KEYS[key].default, layer: "default", kind: CONFIG_KEYS[key].kind };
  }
  const apply = (layer: ConfigLayer, source: string, pairs: Array<[string, unknown]>) => {
    for (const [key, raw] of pairs) {
      const spec = keySpec(key);
      if (!spec) throw unknownKey(source, key);
      const parsed = spec.schema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue && issue.path.length > 0 ? ` at ${formatIssuePath(issue.path)}` : "";
        const detail = (issue?.message ?? "invalid").replace(/^Invalid input: /, "");
        throw new ConfigError(source, key, `has the wrong type${where}: ${detail} (${spec.doc})`);
      }
      const previous = values[key as ConfigKey];
      if (spec.merge === "concat" && Array.isArray(parsed.data)) {
        // lower layers are applied first; a higher layer's list goes in front
        const contributions = [{ layer, source, value: parsed.data }, ...(previous.contributions ?? [])];
        const merged = contributions.flatMap((c) => c.value as unknown[]);
        values[key as ConfigKey] = { value: merged, layer, kind: spec.kind, source, contributions };
      } else {
        values[key as ConfigKey] = { value: parsed.data, layer, kind: spec.kind, source };
      }
    }
  };
  const userFile = path.join(home, "config.json");
  apply("user", userFile, readConfigFile(userFile));
  const projectFile = path.join(projectRoot, ".toolplane", "config.json");
  apply("project", projectFile, readConfigFile(projectFile));
  for (const [key, value] of fromEnv(env)) apply("env", envName(key), [[key, value]]);
  apply("cli", "--set", (options.set ?? []).map(parseSetArg));
  return {
    cwd,
    projectRoot,
    home,
    values,
    get: (key) => values[key].value,
    ofKind: (kind) =>
      Object.fromEntries(
        CONFIG_KEY_NAMES.filter((k) => values[k].kind === kind).map((k) => [k, values[k].value]),
      ),
  };
}

function unknownKey(source: string, key: string): ConfigError {
  const near = nearest(key, CONFIG_KEY_NAMES);
  const hint = near.length > 0 ? `; did you mean ${near.map((n) => `"${n}"`).join(" or ")}?` : "";
  return new ConfigError(
    source,
    key,
    `is not a configuration key${hint} (run \`toolplane config\` to list them)`,
  );
}

/** Nested objects are walked down to known keys; dotted keys at any level are accepted too. */
function readConfigFile(file: string): Array<[string, unknown]> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new ConfigError(file, "", `cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(file, "", `is not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(json)) throw new ConfigError(file, "", "must hold a JSON object");
  const pairs: Array<[string, unknown]> = [];
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [k, v] of Object.entries(node)) {
      const key = prefix === "" ? k : `${prefix}.${k}`;
      if (keySpec(key)) pairs.push([key, v]);
      else if (isPlainObject(v) && CONFIG_KEY_NAMES.some((known) => known.startsWith(`${key}.`)))
        walk(v, key);
      else throw unknownKey(file, key);
    }
  };
  walk(json, "");
  return pairs;
}

function fromEnv(env: NodeJS.ProcessEnv): Array<[string, unknown]> {
  const pairs: Array<[string, unknown]> = [];
  for (const key of CONFIG_KEY_NAMES) {
    const raw = env[envName(key)];
    if (raw !== undefined) pairs.push([key, parseValue(raw)]);
  }
  return pairs;
}

export function parseSetArg(arg: string): [string, unknown] {
  const eq = arg.indexOf("=");
  if (eq <= 0)
    throw new ConfigError("--set", arg, "must look like KEY=VALUE, e.g. --set catalog.budget.chars=2000");
  return [arg.slice(0, eq), parseValue(arg.slice(eq + 1))];
}

/** VALUE is parsed as JSON when it parses, else taken as a string. */
export function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function formatIssuePath(parts: readonly PropertyKey[]): string {
  return parts
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
    .join("")
    .replace(/^\./, "");
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
