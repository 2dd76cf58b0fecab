import { createRequire } from "node:module";
import type { z as Z } from "zod";

let loaded: typeof Z | undefined;

/**
 * Zod, loaded on first use (the pattern of util/ajv.ts): building the configuration's and the
 * permission rules' schemas needs it only when a file, an environment variable or `--set` gives a
 * value to check, and loading it costs more than Node's own start. It is loaded synchronously
 * (its CommonJS build), so every caller stays synchronous. The schemas it builds are toolplane's
 * own: they never meet a user's Zod, which may be another copy.
 */
export function zod(): typeof Z {
  loaded ??= (createRequire(import.meta.url)("zod") as { z: typeof Z }).z;
  return loaded;
}

/** A schema built on first use and kept: `lazySchema(() => zod().string())()`. */
export function lazySchema<T>(build: () => T): () => T {
  let schema: T | undefined;
  return () => {
    schema ??= build();
    return schema;
  };
}
