// Packing this repository and installing the tarball into a throwaway consumer project, offline,
// as a user's `npm install` would lay it out (see consumer-lock.ts for why it goes through a lockfile).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./cli.js";
import { consumerLock, type Lockfile } from "./consumer-lock.js";

export const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
export const NPX = process.platform === "win32" ? "npx.cmd" : "npx";
export const repoPackage = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));

/**
 * npm's environment for the child processes: the caller's, minus what `npm test` exported about
 * this repository (npm_package_*, npm_lifecycle_*, the local prefix), which would point a nested
 * npm back here. The cache location and the user's npmrc stay: the install reads that cache.
 */
export function npmEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    const key = k.toLowerCase();
    if (key.startsWith("npm_") && !["npm_config_cache", "npm_config_userconfig"].includes(key)) continue;
    env[k] = v;
  }
  return {
    ...env,
    npm_config_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    ...extra,
  };
}

export function sh(cmd: string, args: string[], cwd: string, env = npmEnv()): string {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout: 180_000 });
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

export interface Packed {
  filename: string;
  files: string[];
  tarball: Buffer;
}

/** `npm pack` of this repository into `dir` (dist/ must be built: npm test builds before vitest). */
export function packRepository(dir: string): Packed {
  if (!existsSync(path.join(ROOT, "dist", "src", "index.js")))
    throw new Error("dist/ is missing: run `npm run build` (npm test builds before vitest)");
  // --ignore-scripts: npm test has just built dist/, and prepare would build it again
  const packed = JSON.parse(
    sh(NPM, ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], ROOT),
  )[0] as {
    filename: string;
    files: Array<{ path: string }>;
  };
  return {
    filename: packed.filename,
    files: packed.files.map((f) => f.path),
    tarball: readFileSync(path.join(dir, packed.filename)),
  };
}

/**
 * A consumer project in `dir` with the tarball and `dependencies` installed by `npm ci --offline`.
 * `aliases` installs a dependency from the package this repository holds under an npm alias
 * (`{ai: "ai-7"}`: the consumer's `ai` is the newest supported major).
 */
export function installConsumer(
  dir: string,
  packed: Packed,
  dependencies: Record<string, string>,
  aliases: Record<string, string> = {},
): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, packed.filename), packed.tarball);
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      name: "consumer",
      private: true,
      type: "module",
      dependencies: { ...dependencies, toolplane: `file:${packed.filename}` },
    }),
  );
  const repoLock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as Lockfile;
  const lock = consumerLock({
    repoLock: withAliasesAsNames(repoLock, aliases),
    name: "consumer",
    dependencies,
    packed: {
      manifest: { ...repoPackage, dependencies: repoPackage.dependencies },
      file: packed.filename,
      integrity: `sha512-${createHash("sha512").update(packed.tarball).digest("base64")}`,
    },
  });
  writeFileSync(path.join(dir, "package-lock.json"), JSON.stringify(lock, null, 2));
  // Install scripts are skipped, for one reason: the native `tree-sitter` binding's prebuilt
  // binary needs a newer libstdc++ than Debian 12's, so there its install script compiles it
  // (~30 s a consumer, and a minute of one test's worker blocked). The compile the repository's
  // own install made is put where the consumer's would be; with none, the consumer has what the
  // package ships (the prebuilt binaries, or the wasm parser). No other dependency needs a script.
  sh(NPM, ["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], dir);
  const built = path.join(ROOT, "node_modules", "tree-sitter", "build", "Release");
  const target = path.join(dir, "node_modules", "tree-sitter");
  if (existsSync(built) && existsSync(target))
    cpSync(built, path.join(target, "build", "Release"), { recursive: true });
}

/** The lockfile with each alias's subtree moved to the real name (and the real name's subtree dropped). */
function withAliasesAsNames(lock: Lockfile, aliases: Record<string, string>): Lockfile {
  let packages = lock.packages;
  for (const [name, alias] of Object.entries(aliases)) {
    const to = `node_modules/${name}`;
    const from = `node_modules/${alias}`;
    const under = (p: string, base: string) => p === base || p.startsWith(`${base}/`);
    const next: Lockfile["packages"] = {};
    for (const [p, entry] of Object.entries(packages)) {
      if (under(p, to)) continue;
      if (under(p, from)) next[to + p.slice(from.length)] = entry;
      else next[p] = entry;
    }
    packages = next;
  }
  return { ...lock, packages };
}
