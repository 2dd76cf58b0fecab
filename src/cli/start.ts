import path from "node:path";
import { fileURLToPath } from "node:url";
import type * as Core from "../core.js";
import { toolplaneCacheDir } from "../util/paths.js";
import { type CachedModule, requireWithCodeCache } from "./code-cache.js";

/** The core's file name, content hash included (set by scripts/bundle.mjs when it builds this file). */
declare const TOOLPLANE_CORE: string;

/**
 * toolplane's code is one CommonJS file (scripts/bundle.mjs), compiled with the V8 code cache of
 * an earlier run (code-cache.ts): on Node 20 that saves the parse and compile of ~1 MB in every
 * process. The cache sits in toolplane's cache folder (`$TOOLPLANE_CACHE_DIR`, empty for none),
 * named for the Node version, the machine, the core's content hash and the command: V8 writes
 * into a cache the functions that had run when it was made, and each command runs its own (a
 * cache made by `catalog` left `call` compiling most of what it runs).
 */
export function loadCore(command: string | undefined): CachedModule<typeof Core> {
  const core = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "chunks", TOOLPLANE_CORE);
  const cacheDir = toolplaneCacheDir();
  const which = command !== undefined && /^[a-z][a-z-]{0,19}$/.test(command) ? command : "other";
  const runtime = `${process.version}-${process.arch}-`;
  const build = `${runtime}${TOOLPLANE_CORE.replace(/\.cjs$/, "")}-`;
  return requireWithCodeCache<typeof Core>(
    core,
    cacheDir === undefined
      ? undefined
      : {
          path: path.join(cacheDir, "code", `${build}${which}.v8`),
          // another build's cache for this Node: left by an upgrade, never read again
          replaces: (name) => name.startsWith(runtime) && !name.startsWith(build) && name.endsWith(".v8"),
        },
  );
}
