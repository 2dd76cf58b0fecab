/**
 * A package-lock.json for a throwaway consumer project, cut from this repository's lockfile, so
 * `npm ci --offline` installs the packed tarball and its dependencies from the local npm cache.
 *
 * Why not `npm install --offline ./toolplane.tgz`: npm 11 resolves every new dependency from the
 * registry's full package documents, but `npm ci` fetched only the abbreviated ones, so on a fresh
 * clone (npm ci, no network) that install fails with ENOTCACHED. `npm ci` from a lockfile needs
 * only what `npm ci` of this repository already put in the cache.
 */

type LockEntry = Record<string, unknown> & {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

export interface Lockfile {
  name?: string;
  lockfileVersion: number;
  requires?: boolean;
  packages: Record<string, LockEntry>;
}

export interface ConsumerLockRequest {
  /** The repository's package-lock.json, parsed. */
  repoLock: Lockfile;
  /** The consumer's package.json `name`. */
  name: string;
  /** The consumer's dependencies besides the tarball, by name; each must be in the repo lockfile. */
  dependencies: Record<string, string>;
  /** The packed package: its package.json, the tarball's file name (beside the lockfile) and integrity. */
  packed: { manifest: LockEntry & { name: string; version: string }; file: string; integrity: string };
}

/** Where `from` (a lockfile path, "" for the root) finds `dep`, by Node's lookup: nearest node_modules up. */
function locate(packages: Record<string, LockEntry>, from: string, dep: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = dir === "" ? `node_modules/${dep}` : `${dir}/node_modules/${dep}`;
    if (packages[candidate]) return candidate;
    if (dir === "") return undefined;
    const cut = dir.lastIndexOf("/node_modules/");
    dir = cut === -1 ? "" : dir.slice(0, cut);
  }
}

/** The edges npm installs from an entry: dependencies, optional ones, and required peers. */
function edges(entry: LockEntry): Array<{ name: string; optional: boolean }> {
  const out: Array<{ name: string; optional: boolean }> = [];
  for (const name of Object.keys(entry.dependencies ?? {})) out.push({ name, optional: false });
  for (const name of Object.keys(entry.optionalDependencies ?? {})) out.push({ name, optional: true });
  for (const name of Object.keys(entry.peerDependencies ?? {}))
    if (!entry.peerDependenciesMeta?.[name]?.optional) out.push({ name, optional: false });
  return out;
}

export function consumerLock(req: ConsumerLockRequest): Lockfile {
  const source = req.repoLock.packages;
  const tarballPath = `node_modules/${req.packed.manifest.name}`;
  const m = req.packed.manifest;
  const tarballEntry: LockEntry = {
    version: m.version,
    resolved: `file:${req.packed.file}`,
    integrity: req.packed.integrity,
    ...(m.license ? { license: m.license } : {}),
    ...(m.dependencies ? { dependencies: m.dependencies } : {}),
    ...(m.optionalDependencies ? { optionalDependencies: m.optionalDependencies } : {}),
    ...(m.bin ? { bin: m.bin } : {}),
    ...(m.engines ? { engines: m.engines } : {}),
    ...(m.peerDependencies ? { peerDependencies: m.peerDependencies } : {}),
    ...(m.peerDependenciesMeta ? { peerDependenciesMeta: m.peerDependenciesMeta } : {}),
  };
  const packages: Record<string, LockEntry> = { ...source, [tarballPath]: tarballEntry };

  // walk from the root: a package is optional when every path to it crosses an optional edge
  const required = new Set<string>();
  const reached = new Set<string>();
  const visit = (start: Array<{ path: string; optional: boolean }>) => {
    const todo = [...start];
    while (todo.length > 0) {
      const { path, optional } = todo.pop()!;
      const seen = optional ? reached : required;
      if (seen.has(path) || (optional && required.has(path))) continue;
      seen.add(path);
      reached.add(path);
      for (const e of edges(packages[path]!)) {
        const found = locate(packages, path, e.name);
        if (found === undefined) {
          if (e.optional) continue;
          throw new Error(`${path} needs ${e.name}, which the repository's lockfile does not hold`);
        }
        todo.push({ path: found, optional: optional || e.optional });
      }
    }
  };
  const rootDeps = [req.packed.manifest.name, ...Object.keys(req.dependencies)];
  visit(
    rootDeps.map((name) => {
      const found = locate(packages, "", name);
      if (found === undefined) throw new Error(`the repository's lockfile does not hold ${name}`);
      return { path: found, optional: false };
    }),
  );

  const out: Record<string, LockEntry> = {
    "": {
      name: req.name,
      dependencies: { ...req.dependencies, [m.name]: `file:${req.packed.file}` },
    },
  };
  for (const path of [...reached].sort()) {
    const {
      dev: _dev,
      devOptional: _devOptional,
      peer: _peer,
      optional: _optional,
      ...entry
    } = packages[path]!;
    out[path] = required.has(path) ? entry : { ...entry, optional: true };
  }
  return { name: req.name, lockfileVersion: 3, requires: true, packages: out };
}
