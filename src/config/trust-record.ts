import { chmodSync, mkdirSync, realpathSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ConfigError } from "./errors.js";
import { readConfigText, realpathOr } from "./load.js";

export interface TrustChange {
  /** The user's configuration file that holds the record. */
  file: string;
  /** The project root as recorded (realpath). */
  project: string;
  /** Whether the file had to change (false: it already said so). */
  changed: boolean;
}

/**
 * Records (or removes) a project in `trust.projects` of the user's own file,
 * `$TOOLPLANE_HOME/config.json`: the only place a project's trust can come from besides the
 * environment and --set (a project cannot trust itself). The rest of the file is kept as it was
 * (its keys, nested or dotted, and their order); it is written whole to a temporary file and
 * renamed over the old one, so a crash never leaves half a file.
 */
export function recordTrust(home: string, projectRoot: string, trusted: boolean): TrustChange {
  const file = path.join(home, "config.json");
  const project = realpathOr(projectRoot);
  const text = readConfigText(file, "user");
  let json: Record<string, unknown> = {};
  if (text !== undefined && text.trim() !== "") {
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      throw new ConfigError(
        file,
        "",
        `is not valid JSON (${(error as Error).message}); fix it, then run this again`,
      );
    }
    if (json === null || typeof json !== "object" || Array.isArray(json))
      throw new ConfigError(file, "", "must hold a JSON object");
  }
  const { get, set } = trustList(json, file);
  const before = get();
  const others = before.filter((p) => realpathOr(p) !== project);
  const after = trusted ? [...others, project].sort() : others;
  const changed = JSON.stringify(before) !== JSON.stringify(after);
  if (changed) {
    set(after);
    mkdirSync(home, { recursive: true, mode: 0o700 });
    // a config.json that links into a dotfiles repository is written through the link, not replaced
    const target = text !== undefined ? realpathSync(file) : file;
    const temp = path.join(path.dirname(target), `.config.json.${process.pid}.tmp`);
    writeFileSync(temp, `${JSON.stringify(json, null, 2)}\n`, { mode: 0o600 });
    // an existing file keeps its mode; a new one is the user's alone
    if (text !== undefined) chmodSync(temp, statSync(target).mode & 0o777);
    renameSync(temp, target);
  }
  return { file, project, changed };
}

/** Reads and writes `trust.projects` where the file keeps it: dotted, nested, or not yet. */
function trustList(json: Record<string, unknown>, file: string) {
  const check = (value: unknown): string[] => {
    if (value === undefined) return [];
    if (!Array.isArray(value) || value.some((p) => typeof p !== "string"))
      throw new ConfigError(
        file,
        "trust.projects",
        "must be a list of absolute paths; fix it, then run this again",
      );
    return value as string[];
  };
  if ("trust.projects" in json) {
    return {
      get: () => check(json["trust.projects"]),
      set: (list: string[]) => {
        json["trust.projects"] = list;
      },
    };
  }
  const nested = json.trust;
  if (nested !== undefined && (nested === null || typeof nested !== "object" || Array.isArray(nested)))
    throw new ConfigError(
      file,
      "trust",
      'must be an object ({"projects": [...]}); fix it, then run this again',
    );
  return {
    get: () => check((nested as Record<string, unknown> | undefined)?.projects),
    set: (list: string[]) => {
      json.trust = { ...((nested as Record<string, unknown> | undefined) ?? {}), projects: list };
    },
  };
}
