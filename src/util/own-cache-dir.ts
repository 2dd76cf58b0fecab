import { chmod, lstat, mkdir } from "node:fs/promises";
import path from "node:path";
import { ownedByMe } from "./owned-by-me.js";
import { toolplaneCacheDir } from "./paths.js";

/**
 * A folder of toolplane's cache (`sub` under toolplaneCacheDir), created 0700 and checked to be
 * the user's own; undefined when caching on disk is off or the folder is unusable. What others may
 * write there could hand us indexes or vectors, so another user's folder is not used, and one
 * others may write to is set back to 0700.
 */
export async function ownCacheDir(env: NodeJS.ProcessEnv, sub: string): Promise<string | undefined> {
  const root = toolplaneCacheDir(env);
  if (root === undefined) return undefined;
  const dir = path.join(root, sub);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    for (const d of [root, dir]) {
      const st = await lstat(d);
      if (!st.isDirectory() || st.isSymbolicLink()) return undefined;
      if (!ownedByMe(st.uid)) return undefined;
      if ((st.mode & 0o077) !== 0) await chmod(d, 0o700);
    }
    return dir;
  } catch {
    return undefined;
  }
}
