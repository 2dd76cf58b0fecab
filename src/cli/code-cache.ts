import { isAscii } from "node:buffer";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import Module, { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";
import { ownedByMe } from "../util/owned-by-me.js";

/** A CommonJS module compiled with V8's code cache; `save()` keeps the cache for the next process. */
export interface CachedModule<T> {
  exports: T;
  /** What V8 did with the cache: compiled from it, refused it, found none, or none was asked for. */
  cache: "used" | "refused" | "none" | "off";
  /** Writes the code cache when there was none or V8 refused it. Never throws. */
  save(): void;
}

interface NodeModule {
  exports: unknown;
  filename: string;
  paths: string[];
  loaded: boolean;
}

type ModuleInternals = typeof Module & { _nodeModulePaths(dir: string): string[] };

const require = createRequire(import.meta.url);

/** Where the cache is kept, and which other files in its folder it replaces (older builds'). */
export interface CodeCacheFile {
  path: string;
  replaces(name: string): boolean;
}

/**
 * Loads `file` as Node's CommonJS loader would, but compiles it with the code cache V8 made in an
 * earlier process (`cache`), so V8 neither parses the file again nor compiles again the
 * functions that run. Node 20 has no compile cache of its own (`module.enableCompileCache` is
 * Node 22); this is the technique of the `v8-compile-cache` package, kept to one file of our own
 * so that nothing else in the process is touched (that package patches every require). The module
 * is entered in `require.cache`, so a `require()` of the same file (the library entry, which a
 * user's tool module imports) gets this instance.
 *
 * The cache is only an optimisation: an unreadable, missing or refused one (V8 checks its own
 * version, the flags and the source's length) compiles the file from its source, and failing to
 * write one is ignored. Each build's file has its content hash in its name, so a cache never
 * meets a different source of the same length.
 */
export function requireWithCodeCache<T>(file: string, cache: CodeCacheFile | undefined): CachedModule<T> {
  const existing = require.cache[file];
  if (existing) return { exports: existing.exports as T, cache: "off", save: () => {} };
  const source = sourceText(readFileSync(file));
  const cached = cache === undefined ? undefined : readOwnCache(cache.path);
  const internals = Module as ModuleInternals;
  // Node's own wrapper, with one more parameter: this module's import(), which code compiled from
  // a cache cannot make itself (util/import-module.ts). On a line of its own, so that the file's
  // lines and columns in a stack trace are the file's.
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname, __toolplaneImport) {\n${source}\n});`,
    { filename: file, lineOffset: -1, ...(cached ? { cachedData: cached } : {}) },
  );
  const mod = new Module(file) as unknown as NodeModule;
  mod.filename = file;
  mod.paths = internals._nodeModulePaths(path.dirname(file));
  require.cache[file] = mod as unknown as NodeJS.Module;
  try {
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file), importHere);
  } catch (error) {
    delete require.cache[file];
    throw error;
  }
  mod.loaded = true;
  const fresh = cached === undefined || script.cachedDataRejected === true;
  return {
    exports: mod.exports as T,
    cache:
      cache === undefined
        ? "off"
        : cached === undefined
          ? "none"
          : script.cachedDataRejected
            ? "refused"
            : "used",
    save: () => {
      if (fresh && cache !== undefined) writeCache(script, cache);
    },
  };
}

/** Package names, `node:` builtins and absolute file URLs resolve the same from here as from the core. */
const importHere = (specifier: string): Promise<unknown> => import(specifier);

/**
 * The core is ASCII (scripts/bundle.mjs checks it), for which Latin-1 decoding is a copy: ~1.3 ms
 * less than UTF-8's of 0.8 MB here. Anything else is decoded as UTF-8, as Node would.
 */
function sourceText(bytes: Buffer): string {
  return bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
}

/**
 * A code cache is code: V8 runs what it holds. So it is read only from a folder that is the
 * user's own and a file the user owns that no one else may write (like the read tool's line
 * indexes, read/index-store.ts), never through a symbolic link; anything else is left unread.
 */
function readOwnCache(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    if (!ownFolder(path.dirname(file))) return undefined;
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile() || !ownedByMe(st.uid) || (st.mode & 0o022) !== 0) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function ownFolder(dir: string): boolean {
  const st = lstatSync(dir);
  return st.isDirectory() && ownedByMe(st.uid) && (st.mode & 0o022) === 0;
}

/**
 * Written after the command ran, so the cache holds the functions it compiled, not only the
 * top level. Through a temporary file and a rename: a process reading the cache meanwhile sees the
 * old one or the new one, never half of one. The files it replaces are removed, so the folder
 * does not grow with every upgrade.
 */
function writeCache(script: vm.Script, cache: CodeCacheFile): void {
  try {
    const dir = path.dirname(cache.path);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!ownFolder(dir)) return;
    const temp = `${cache.path}.${process.pid}.tmp`;
    // a new file (never one someone put at that name), the user's alone
    writeFileSync(temp, script.createCachedData(), { flag: "wx", mode: 0o600 });
    renameSync(temp, cache.path);
    for (const name of readdirSync(dir))
      if (cache.replaces(name)) rmSync(path.join(dir, name), { force: true });
  } catch {
    // a read-only or full disk: the next process compiles from the source, as without a cache
  }
}
