import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** The nearest ancestor of `cwd` holding `.git`, else `cwd` itself. */
export function findProjectRoot(cwd: string): string {
  let dir = path.resolve(cwd);
  for (;;) {
    if (existsSync(path.join(dir, ".git"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(cwd);
    dir = parent;
  }
}

/** `$HOME` from the given environment, so tests can be hermetic. */
export function homeDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOME && env.HOME !== "" ? env.HOME : homedir();
}

/** `$TOOLPLANE_HOME`, else `$XDG_CONFIG_HOME/toolplane`, else `~/.config/toolplane`. */
export function toolplaneHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TOOLPLANE_HOME) return path.resolve(env.TOOLPLANE_HOME);
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, "toolplane");
  return path.join(homeDir(env), ".config", "toolplane");
}

/**
 * Where toolplane keeps caches it can always rebuild (the read tool's line indexes):
 * `$TOOLPLANE_CACHE_DIR` (empty: no cache on disk), else `$XDG_CACHE_HOME/toolplane`, else
 * `~/.cache/toolplane`. Undefined when caching on disk is off.
 */
export function toolplaneCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const own = env.TOOLPLANE_CACHE_DIR;
  if (own !== undefined) return own === "" ? undefined : path.resolve(own);
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, "toolplane");
  return path.join(homeDir(env), ".cache", "toolplane");
}
