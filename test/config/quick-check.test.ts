// Configuration values with a plain schema are checked by a validator made at build time, so
// that a value from a file, the environment or --set does not load Zod. It must accept exactly
// what the key's Zod schema accepts, and the value it lets through must be what Zod's parse gives.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CONFIG_KEYS, generateKeyChecks, plainConfigKeys } from "../../scripts/prebuilt.js";
import type { ConfigKey } from "../../src/config/index.js";
import { keySchema } from "../../src/config/keys.js";
import { quickAccepts } from "../../src/config/quick-check.js";
import { near } from "../helpers/near-schema.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

describe("configuration values checked without Zod", () => {
  it("src/config/keys.gen.ts is what the key table makes now (npm run gen:schemas writes it)", () => {
    const committed = readFileSync(path.join(root, "src/config/keys.gen.ts"), "utf8");
    expect(committed).toBe(generateKeyChecks(CONFIG_KEYS));
  });

  const plain = plainConfigKeys(CONFIG_KEYS);

  it("the plain keys are the scalar and list-of-string ones; a key with objects, URLs or refinements is left to Zod", () => {
    const names = plain.map(([k]) => k);
    for (const k of [
      "catalog.budget.chars",
      "defer.mode",
      "tools.disabled",
      "results.spillDir",
      "tools.sandbox",
    ])
      expect(names).toContain(k);
    for (const k of ["permissions.rules", "mcp.servers", "defer.tools"]) expect(names).not.toContain(k);
    expect(quickAccepts("permissions.rules", [])).toBe(false);
  });

  for (const [key, json] of plain) {
    it(`${key}: accepts exactly what Zod's parse does, and the value as Zod gives it`, () => {
      const schema = keySchema(key as ConfigKey);
      fc.assert(
        fc.property(near(json), (value) => {
          const zod = schema.safeParse(value);
          expect(quickAccepts(key, value), JSON.stringify(value)).toBe(zod.success);
          if (zod.success) expect(value).toEqual(zod.data);
        }),
        { numRuns: 300 },
      );
      const spec = CONFIG_KEYS[key as ConfigKey];
      expect(quickAccepts(key, spec.default)).toBe(true);
    });
  }
});
