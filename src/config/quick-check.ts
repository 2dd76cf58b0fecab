// A configuration value checked without Zod. Loading Zod costs about as much as Node's own start
// (its CommonJS build: ~80 ms here), and a value from a file, the environment or `--set` needed it
// before. Keys with a plain schema (numbers, strings, enums, booleans, lists of strings; see
// scripts/prebuilt.ts) carry ajv's standalone validator, made at build time from the Zod schema.
import { KEY_CHECKS } from "./keys.gen.js";

type Check = (data: unknown) => boolean;
const compiled = new Map<string, Check>();

/**
 * True when the key's prebuilt validator accepts the value: Zod's parse would accept it too and
 * give it back as it is (test/config/quick-check.test.ts). False when the key has none or the
 * value is refused: Zod then checks it, and words the error.
 */
export function quickAccepts(key: string, value: unknown): boolean {
  if (!Object.hasOwn(KEY_CHECKS, key)) return false;
  let check = compiled.get(key);
  if (!check) {
    // toolplane's own generated text, never input (as in declare/prebuilt.ts)
    check = new Function(KEY_CHECKS[key]!)() as Check;
    compiled.set(key, check);
  }
  return check(value);
}
