import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { generateModule, PREBUILT_MODULES } from "../../scripts/prebuilt.js";
import { defineTool } from "../../src/declare/define-tool.js";
import { isZodSchema, toJsonSchema } from "../../src/declare/json-schema.js";
import { isPrebuiltSchema, type PrebuiltSchema } from "../../src/declare/prebuilt.js";
import type { JsonSchema } from "../../src/declare/types.js";
import { compileValidator } from "../../src/declare/validate.js";
import { paramsText } from "../../src/defer/search/from-tool.js";
import { near } from "../helpers/near-schema.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Each generated module, loaded as the tools load it. */
async function loaded(file: string): Promise<Record<string, unknown>> {
  return (await import(path.join(root, file))) as Record<string, unknown>;
}

/** True when the value (and everything in it) has no key its object schema does not name. */
function onlyKnownKeys(value: unknown, schema: JsonSchema): boolean {
  if (Array.isArray(value)) return value.every((v) => onlyKnownKeys(v, (schema.items ?? {}) as JsonSchema));
  if (value === null || typeof value !== "object") return true;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) return branches.some((b) => onlyKnownKeys(value, b));
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (!props) return true;
  return Object.entries(value).every(([k, v]) => Object.hasOwn(props, k) && onlyKnownKeys(v, props[k]!));
}

describe("prebuilt schemas (the built-in tools' JSON Schemas and validators, made at build time)", () => {
  for (const module of PREBUILT_MODULES) {
    it(`${module.file} is what the Zod declarations make now (npm run gen:schemas writes it)`, () => {
      const committed = readFileSync(path.join(root, module.file), "utf8");
      expect(committed).toBe(generateModule(module));
    });

    for (const entry of module.entries) {
      it(`${entry.name}: the JSON Schema is Zod's, and the validator accepts exactly what Zod's parse does`, async () => {
        const prebuilt = (await loaded(module.file))[entry.name] as PrebuiltSchema;
        expect(isPrebuiltSchema(prebuilt)).toBe(true);
        const json = toJsonSchema(entry.schema, entry.io);
        expect(prebuilt.json).toEqual(json);
        expect(Object.isFrozen(prebuilt.json)).toBe(true);
        if (entry.io === "input") expect(paramsText(prebuilt)).toBe(paramsText(entry.schema));
        const viaPrebuilt = compileValidator(prebuilt, () => prebuilt.json);
        const viaZod = compileValidator(entry.schema, () => json);
        fc.assert(
          fc.property(near(json), (value) => {
            const a = viaPrebuilt(value);
            const b = viaZod(value);
            if (JSON.stringify(value).includes('"__proto__"')) {
              // Zod's parse drops an own "__proto__" key without checking its value (assigning it
              // sets the prototype); the validator checks it like any key, so it is only stricter
              if (a.ok) expect(b.ok, JSON.stringify(value)).toBe(true);
            } else if (onlyKnownKeys(value, json)) {
              expect(a.ok, JSON.stringify(value)).toBe(b.ok);
              if (a.ok && b.ok) expect(a.value).toEqual(b.value);
            } else if (entry.io === "output") {
              // Zod's parse drops a key the value's schema does not name; an output schema says
              // additionalProperties: false, so the validator refuses it: a built-in tool that
              // returns a field its schema lacks is a fault to see, not a field to lose silently
              expect(a.ok, JSON.stringify(value)).toBe(false);
            } else {
              // parameters: the host refuses an unknown one before validating (unknownFields)
              expect(a.ok || !b.ok, JSON.stringify(value)).toBe(true);
            }
            if (!a.ok) expect(a.issues.length).toBeGreaterThan(0);
          }),
          { numRuns: 400 },
        );
      });
    }
  }

  it("a tool declared with a prebuilt schema projects and validates as its Zod twin does", async () => {
    const gen = await loaded("src/tools/read/schema.gen.ts");
    const { readParameters, readOutput } = await import("../../src/tools/read/schema.js");
    const common = { name: "t", description: "d", execute: () => ({}) };
    const fromPrebuilt = defineTool({
      ...common,
      parameters: gen.readParameters as PrebuiltSchema,
      output: { schema: gen.readOutput as PrebuiltSchema, render: () => "" },
    });
    const fromZod = defineTool({
      ...common,
      parameters: readParameters,
      output: { schema: readOutput, render: () => "" },
    });
    expect(fromPrebuilt.parameters).toEqual(fromZod.parameters);
    expect(fromPrebuilt.outputSchema).toEqual(fromZod.outputSchema);
    // shared as it is: the projection never copies a frozen schema
    expect(fromPrebuilt.parameters).toBe((gen.readParameters as PrebuiltSchema).json);
    expect(fromPrebuilt.validateInput({ path: "a", limit: 3 })).toEqual({
      ok: true,
      value: { path: "a", limit: 3 },
    });
    const bad = fromPrebuilt.validateInput({ path: 3 });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.issues).toEqual([{ path: "/path", message: "must be string" }]);
  });

  it("a default in a prebuilt schema is filled into a copy: the caller's value is never changed", () => {
    const schema = z.object({ n: z.number().default(4) });
    const module = {
      file: "src/x.gen.ts",
      entries: [{ name: "p", schema, from: "./x.js", io: "input" as const }],
    };
    const text = generateModule(module);
    expect(text).toMatch(/,\n {2}true,\n\);/);
  });
});

describe("Zod schemas are read by their shape, so any copy of Zod 4 declares a tool", () => {
  it("a schema from Zod's CommonJS build (another copy) is a Zod schema to toolplane", () => {
    const cjs = (createRequire(import.meta.url)("zod") as { z: typeof z }).z;
    const parameters = cjs.object({ q: cjs.string().min(1).describe("the query") });
    expect(isZodSchema(parameters)).toBe(true);
    const tool = defineTool({
      name: "other_copy",
      description: "d",
      parameters,
      output: { schema: cjs.string(), render: (v: string) => v },
      execute: () => "x",
    });
    expect(tool.parameters).toMatchObject({
      type: "object",
      properties: { q: { type: "string", minLength: 1 } },
    });
    expect(tool.validateInput({ q: "" }).ok).toBe(false);
    expect(tool.validateInput({ q: "a" })).toEqual({ ok: true, value: { q: "a" } });
    expect(paramsText(parameters)).toBe("q the query");
  });

  it("a JSON Schema that happens to hold a `_zod` key is still a JSON Schema", () => {
    expect(isZodSchema({ type: "object", _zod: { def: {} } })).toBe(false);
  });
});
