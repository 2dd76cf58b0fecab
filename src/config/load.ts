import { realpathSync } from "node:fs";
import path from "node:path";
import { unknownHookEvent } from "../hooks/config.js";
import { nearest } from "../util/nearest.js";
import { findProjectRoot, toolplaneHome } from "../util/paths.js";
import { FileTooLargeError, NotRegularFileError, readRegularFileSync } from "../util/regular-file.js";
import { ConfigError } from "./errors.js";
import {
  CONFIG_KEY_NAMES,
  CONFIG_KEYS,
  type ConfigKey,
  envName,
  type KeyKind,
  keySchema,
  keySpec,
} from "./keys.js";
import { quickAccepts } from "./quick-check.js";
import { type IgnoredPart, PROJECT_GATES } from "./untrusted.js";

/** Highest first. */
export const CONFIG_LAYERS = ["cli", "env", "project", "user", "default"] as const;
export type ConfigLayer = (typeof CONFIG_LAYERS)[number];

/** Largest configuration file read (a config is a few KiB; a device or a runaway file is refused). */
export const CONFIG_FILE_MAX_BYTES = 1024 * 1024;

export interface ConfigValue {
  value: unknown;
  layer: ConfigLayer;
  kind: KeyKind;
  /** The file or variable that set it, when not a default. */
  source?: string;
  /** For keys merged across layers (permissions.rules): what each layer gave, highest first. */
  contributions?: Array<{
    layer: ConfigLayer;
    source: string;
    value: unknown;
    /** When some items were not applied (an untrusted project): each kept item's position in the file. */
    indices?: number[];
  }>;
}

export interface LoadOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** `KEY=VALUE` pairs from `--set`; VALUE is JSON when it parses, else a string. */
  set?: readonly string[];
  /**
   * The harness's own decision about the project (its trust dialog, say): true applies the
   * project file in full, false only what tightens, whatever `trust.projects` says.
   */
  trustProject?: boolean;
}

/** A project-layer key (or part of one) left out because the project is not trusted. */
export interface IgnoredKey extends IgnoredPart {
  key: string;
}

/** Whether the project's own file applies in full, and what it could not set if not. */
export interface ProjectTrust {
  /** The project root (realpath). */
  project: string;
  trusted: boolean;
  /** What decided, for people. */
  source: string;
  /** What the project file set that was not applied (empty when trusted). */
  ignored: IgnoredKey[];
  /** The command that trusts the project. */
  command: string;
}

export interface Config {
  readonly cwd: string;
  readonly projectRoot: string;
  readonly home: string;
  readonly values: Readonly<Record<ConfigKey, ConfigValue>>;
  readonly trust: ProjectTrust;
  get<K extends ConfigKey>(key: K): unknown;
  /** The values of one kind, by key: run-time values go to tools, assembly values to rendering. */
  ofKind(kind: KeyKind): Record<string, unknown>;
}

/** One layer's validated pairs, in the order they apply (lowest first). */
interface LayerInput {
  layer: ConfigLayer;
  source: string;
  pairs: Array<{ key: ConfigKey; value: unknown; indices?: number[] }>;
}

export function loadConfig(options: LoadOptions): Config {
  const env = options.env ?? process.env;
  const cwd = path.resolve(options.cwd);
  const projectRoot = findProjectRoot(cwd);
  const home = toolplaneHome(env);
  const userFile = path.join(home, "config.json");
  const projectFile = path.join(projectRoot, ".toolplane", "config.json");
  const user = validated("user", userFile, readConfigFile(userFile, "user"));
  // the user's own file reached as the project's (a project at $TOOLPLANE_HOME/..) is read once
  const project = sameFile(userFile, projectFile)
    ? validated("project", projectFile, [])
    : validated("project", projectFile, readConfigFile(projectFile, "project"));
  const envLayers = fromEnv(env).map(([key, value]) => validated("env", envName(key), [[key, value]]));
  const cli = validated("cli", "--set", (options.set ?? []).map(parseSetArg));

  // the trusted layers alone decide whether the project is trusted, and what it may tighten
  const trustedOnly = build([user, ...envLayers, cli]);
  const trust = decideTrust(trustedOnly, projectRoot, options.trustProject);
  const projectLayer = trust.trusted ? project : gate(project, trustedOnly, projectRoot, trust);
  const values = build([user, projectLayer, ...envLayers, cli]);
  return {
    cwd,
    projectRoot,
    home,
    values,
    trust,
    get: (key) => values[key].value,
    ofKind: (kind) =>
      Object.fromEntries(
        CONFIG_KEY_NAMES.filter((k) => values[k].kind === kind).map((k) => [k, values[k].value]),
      ),
  };
}

/**
 * Whether the project of `options.cwd` is trusted, from the trusted layers alone (the project's
 * own file is not read, so a broken one does not stand in the way of trusting or revoking).
 */
export function projectTrustOf(options: LoadOptions): ProjectTrust {
  const env = options.env ?? process.env;
  const projectRoot = findProjectRoot(path.resolve(options.cwd));
  const userFile = path.join(toolplaneHome(env), "config.json");
  const user = validated("user", userFile, readConfigFile(userFile, "user"));
  const envLayers = fromEnv(env).map(([key, value]) => validated("env", envName(key), [[key, value]]));
  const cli = validated("cli", "--set", (options.set ?? []).map(parseSetArg));
  return decideTrust(build([user, ...envLayers, cli]), projectRoot, options.trustProject);
}

/** Checks each pair against its key's schema; the error names the source, the key and the place. */
function validated(layer: ConfigLayer, source: string, pairs: Array<[string, unknown]>): LayerInput {
  const out: LayerInput = { layer, source, pairs: [] };
  // `--set hooks='{"PreToolUse": [...]}'` reads as the file's nesting does
  const flat = pairs.flatMap(([key, raw]) =>
    keySpec(key) ? [[key, raw] as [string, unknown]] : flatten(raw, key, source),
  );
  for (const [key, raw] of flat) {
    const spec = keySpec(key);
    if (!spec) throw unknownKey(source, key);
    if (quickAccepts(key, raw)) {
      out.pairs.push({ key: key as ConfigKey, value: raw });
      continue;
    }
    const parsed = keySchema(key as ConfigKey).safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` at ${formatIssuePath(issue.path)}` : "";
      const detail = (issue?.message ?? "invalid").replace(/^Invalid input: /, "");
      const wrongType = ["invalid_type", "invalid_union", "invalid_value"].includes(issue?.code ?? "");
      const what = wrongType ? "has the wrong type" : "is invalid";
      throw new ConfigError(source, key, `${what}${where}: ${detail} (${spec.doc})`);
    }
    out.pairs.push({ key: key as ConfigKey, value: parsed.data });
  }
  return out;
}

/** Defaults, then each layer in order (lowest first); merged keys keep every layer's list. */
function build(layers: readonly LayerInput[]): Record<ConfigKey, ConfigValue> {
  const values = {} as Record<ConfigKey, ConfigValue>;
  for (const key of CONFIG_KEY_NAMES) {
    values[key] = { value: CONFIG_KEYS[key].default, layer: "default", kind: CONFIG_KEYS[key].kind };
  }
  for (const { layer, source, pairs } of layers) {
    for (const { key, value, indices } of pairs) {
      const spec = CONFIG_KEYS[key];
      const previous = values[key];
      if ("merge" in spec && spec.merge === "concat" && Array.isArray(value)) {
        // lower layers are applied first; a higher layer's list goes in front
        const part: NonNullable<ConfigValue["contributions"]>[number] = { layer, source, value };
        if (indices !== undefined) part.indices = indices;
        const contributions = [part, ...(previous.contributions ?? [])];
        const merged = contributions.flatMap((c) => c.value as unknown[]);
        values[key] = { value: merged, layer, kind: spec.kind, source, contributions };
      } else {
        values[key] = { value, layer, kind: spec.kind, source };
      }
    }
  }
  return values;
}

function decideTrust(
  trusted: Record<ConfigKey, ConfigValue>,
  projectRoot: string,
  decided: boolean | undefined,
): ProjectTrust {
  const project = realpathOr(projectRoot);
  const command = `toolplane trust ${shellQuote(project)}`;
  if (decided !== undefined) {
    return {
      project,
      trusted: decided,
      source: "the harness (the trustProject option)",
      ignored: [],
      command,
    };
  }
  const entry = trusted["trust.projects"];
  const listed = (entry.value as string[]).some((p) => realpathOr(p) === project);
  if (listed) {
    const from = entry.contributions?.find((c) =>
      (c.value as string[]).some((p) => realpathOr(p) === project),
    );
    return {
      project,
      trusted: true,
      source: `trust.projects in ${from?.source ?? entry.source}`,
      ignored: [],
      command,
    };
  }
  return { project, trusted: false, source: "not listed in trust.projects", ignored: [], command };
}

/** The untrusted project's layer: each key through its gate; what was left out goes to trust.ignored. */
function gate(
  project: LayerInput,
  trustedOnly: Record<ConfigKey, ConfigValue>,
  projectRoot: string,
  trust: ProjectTrust,
): LayerInput {
  const ctx = { trusted: (key: ConfigKey) => trustedOnly[key].value, projectRoot };
  const out: LayerInput = { ...project, pairs: [] };
  for (const pair of project.pairs) {
    const check = PROJECT_GATES[pair.key];
    if (!check) {
      out.pairs.push(pair);
      continue;
    }
    const result = check(pair.value, ctx);
    for (const part of result.ignored) trust.ignored.push({ key: pair.key, ...part });
    if (result.value === undefined) continue;
    const kept: LayerInput["pairs"][number] = { key: pair.key, value: result.value };
    if (result.indices !== undefined) kept.indices = result.indices;
    out.pairs.push(kept);
  }
  return out;
}

function unknownKey(source: string, key: string): ConfigError {
  const hookProblem = unknownHookEvent(key);
  if (hookProblem !== undefined) return new ConfigError(source, key, hookProblem);
  const near = nearest(key, CONFIG_KEY_NAMES);
  const hint = near.length > 0 ? `; did you mean ${near.map((n) => `"${n}"`).join(" or ")}?` : "";
  return new ConfigError(
    source,
    key,
    `is not a configuration key${hint} (run \`toolplane config\` to list them)`,
  );
}

/**
 * A layer's file as text, or undefined when there is none. Only a regular file of at most 1 MiB
 * is read: a FIFO would block forever and a link to /dev/zero would never end.
 */
export function readConfigText(file: string, layer: "user" | "project"): string | undefined {
  try {
    return readRegularFileSync(file, CONFIG_FILE_MAX_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    const what = `the ${layer} configuration file`;
    if (error instanceof NotRegularFileError)
      throw new ConfigError(
        file,
        "",
        `${what} is ${error.kind}, not a regular file; replace it with a JSON file`,
      );
    if (error instanceof FileTooLargeError)
      throw new ConfigError(
        file,
        "",
        `${what} is larger than ${CONFIG_FILE_MAX_BYTES} bytes (1 MiB); a configuration is a small JSON object`,
      );
    throw new ConfigError(file, "", `${what} cannot be read: ${(error as Error).message}`);
  }
}

/** Nested objects are walked down to known keys; dotted keys at any level are accepted too. */
function readConfigFile(file: string, layer: "user" | "project"): Array<[string, unknown]> {
  const text = readConfigText(file, layer);
  if (text === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(file, "", `is not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(json)) throw new ConfigError(file, "", "must hold a JSON object");
  return flatten(json, "", file);
}

/** A value at `prefix` as key-value pairs: nested objects are walked down to known keys. */
function flatten(value: unknown, prefix: string, source: string): Array<[string, unknown]> {
  const pairs: Array<[string, unknown]> = [];
  const walk = (v: unknown, key: string) => {
    if (key !== "" && keySpec(key)) pairs.push([key, v]);
    else if (
      isPlainObject(v) &&
      (key === "" || CONFIG_KEY_NAMES.some((known) => known.startsWith(`${key}.`)))
    )
      for (const [k, inner] of Object.entries(v)) walk(inner, key === "" ? k : `${key}.${k}`);
    else throw unknownKey(source, key);
  };
  walk(value, prefix);
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

/** The realpath where the path exists, else the path made absolute. */
export function realpathOr(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

function sameFile(a: string, b: string): boolean {
  return realpathOr(a) === realpathOr(b);
}

function shellQuote(p: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
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
