// Writes each built-in tool's prebuilt schemas: the JSON Schema Zod makes from the declaration
// (the same call defineTool makes for a Zod schema) and ajv's standalone validator compiled from
// it, as a `.gen.ts` module beside the declaration. The tools load only those, so a CLI's cold
// path loads neither Zod nor ajv and builds no schema. Run by `npm run gen:schemas`; the test
// (test/declare/prebuilt.test.ts) fails when a committed module differs from what this makes now,
// and checks that each validator accepts and rejects what Zod does.
import { createRequire } from "node:module";
import path from "node:path";
import type { Ajv as AjvType, Options } from "ajv";
import type { z } from "zod";
import { CONFIG_KEYS } from "../src/config/keys.js";
import { toJsonSchema } from "../src/declare/json-schema.js";
import type { JsonSchema } from "../src/declare/types.js";
import { toolSearchOutput, toolSearchParameters } from "../src/defer/tool-search-schema.js";
import { bashOutput, bashParameters } from "../src/tools/bash/schema.js";
import { editOutput, editParameters } from "../src/tools/edit/edit-schema.js";
import { writeOutput, writeParameters } from "../src/tools/edit/write-schema.js";
import { globOutput, globParameters } from "../src/tools/glob/schema.js";
import { grepParameters } from "../src/tools/grep/parameters.js";
import { grepOutput } from "../src/tools/grep/value.js";
import { readOutput, readParameters } from "../src/tools/read/schema.js";
import { skillOutput, skillParameters } from "../src/tools/skill/schema.js";

export interface PrebuiltEntry {
  /** The exported name, in the declaration module and in the generated one. */
  name: string;
  schema: z.ZodType;
  /** The declaration module, relative to the generated one (for the exported type). */
  from: string;
  /** Parameters are read on the input side (defaults optional), values on the output side. */
  io: "input" | "output";
}

export interface PrebuiltModule {
  /** Relative to the repository. */
  file: string;
  entries: PrebuiltEntry[];
}

const pair = (
  file: string,
  from: string,
  parameters: [string, z.ZodType],
  output: [string, z.ZodType],
  outputFrom = from,
): PrebuiltModule => ({
  file,
  entries: [
    { name: parameters[0], schema: parameters[1], from, io: "input" },
    { name: output[0], schema: output[1], from: outputFrom, io: "output" },
  ],
});

export const PREBUILT_MODULES: PrebuiltModule[] = [
  pair(
    "src/tools/read/schema.gen.ts",
    "./schema.js",
    ["readParameters", readParameters],
    ["readOutput", readOutput],
  ),
  pair(
    "src/tools/grep/schema.gen.ts",
    "./parameters.js",
    ["grepParameters", grepParameters],
    ["grepOutput", grepOutput],
    "./value.js",
  ),
  pair(
    "src/tools/glob/schema.gen.ts",
    "./schema.js",
    ["globParameters", globParameters],
    ["globOutput", globOutput],
  ),
  pair(
    "src/tools/edit/edit-schema.gen.ts",
    "./edit-schema.js",
    ["editParameters", editParameters],
    ["editOutput", editOutput],
  ),
  pair(
    "src/tools/edit/write-schema.gen.ts",
    "./write-schema.js",
    ["writeParameters", writeParameters],
    ["writeOutput", writeOutput],
  ),
  pair(
    "src/tools/bash/schema.gen.ts",
    "./schema.js",
    ["bashParameters", bashParameters],
    ["bashOutput", bashOutput],
  ),
  pair(
    "src/tools/skill/schema.gen.ts",
    "./schema.js",
    ["skillParameters", skillParameters],
    ["skillOutput", skillOutput],
  ),
  pair(
    "src/defer/tool-search-schema.gen.ts",
    "./tool-search-schema.js",
    ["toolSearchParameters", toolSearchParameters],
    ["toolSearchOutput", toolSearchOutput],
  ),
];

export { CONFIG_KEYS };

const require = createRequire(import.meta.url);

/**
 * The validator options, chosen to accept exactly what Zod's parse accepts for these schemas:
 * `unicode: false` counts a string's length in UTF-16 units, as Zod's min/max do; allErrors so a
 * bad call learns every field to fix at once; useDefaults fills what Zod's defaults fill.
 */
const AJV_OPTIONS: Options = {
  code: { source: true, esm: true },
  strict: false,
  allErrors: true,
  useDefaults: true,
  unicode: false,
  validateSchema: false,
};

/** ajv's standalone code for one schema, as a function body that returns the validator. */
function standaloneBody(json: JsonSchema): string {
  const { Ajv } = require("ajv") as typeof import("ajv");
  const standaloneCode = (require("ajv/dist/standalone") as { default: (ajv: AjvType, v: unknown) => string })
    .default;
  // ajv prints a deprecation line for `unicode`; the generated code is what matters here
  const warn = console.warn;
  console.warn = () => {};
  let ajv: AjvType;
  try {
    ajv = new Ajv(AJV_OPTIONS);
  } finally {
    console.warn = warn;
  }
  const code = standaloneCode(ajv, ajv.compile(json));
  const exports = /export const validate = (\w+);export default \1;/;
  const name = exports.exec(code)?.[1];
  if (name === undefined) throw new Error("ajv's standalone code has an unexpected shape");
  if (/\brequire\(|\bimport\b/.test(code.replace(exports, "")))
    throw new Error("the validator needs ajv's runtime: keep these schemas to keywords that compile inline");
  const body = code.replace(/^"use strict";/, "").replace(exports, "");
  return `${body}return ${name};`;
}

/** True when validating writes into the value: a default to fill in. */
function writesDefaults(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(writesDefaults);
  if (node === null || typeof node !== "object") return false;
  return Object.entries(node).some(([k, v]) => k === "default" || writesDefaults(v));
}

/** The generated module's text for one entry list. */
export function generateModule(module: PrebuiltModule): string {
  const prebuiltPath = path
    .relative(path.dirname(module.file), "src/declare/prebuilt.js")
    .split(path.sep)
    .join("/");
  const lines = [
    "// Generated by `npm run gen:schemas` (scripts/prebuilt.ts) from the Zod declarations named below:",
    "// each one's JSON Schema as Zod makes it and ajv's standalone validator for it (as text,",
    "// compiled on first use). Do not edit:",
    "// test/declare/prebuilt.test.ts fails when this file differs from what the declarations make.",
    'import type { z } from "zod";',
    `import { type PrebuiltSchema, prebuiltSchema } from "${prebuiltPath.startsWith(".") ? prebuiltPath : `./${prebuiltPath}`}";`,
    "",
  ];
  for (const entry of module.entries) {
    const json = toJsonSchema(entry.schema, entry.io);
    const type = `PrebuiltSchema<z.output<typeof import("${entry.from}").${entry.name}>>`;
    lines.push(
      `/** ${entry.name} of ${entry.from} (${entry.io} side). */`,
      `export const ${entry.name}: ${type} = prebuiltSchema(`,
      `  ${JSON.stringify(json)},`,
      // text, compiled on first use (see prebuiltSchema): parsing it at load would cost every command
      `  ${JSON.stringify(standaloneBody(json))},`,
      `  ${writesDefaults(json)},`,
      ");",
      "",
    );
  }
  return lines.join("\n");
}

/** Zod types and checks whose JSON Schema says all that Zod's parse checks, and whose parse returns the value as given. */
const PLAIN_TYPES = new Set(["string", "number", "boolean", "enum", "literal", "null", "nullable", "array"]);
const PLAIN_CHECKS = new Set(["number_format", "greater_than", "less_than", "min_length", "max_length"]);

/** True when a configuration key's schema is plain (PLAIN_TYPES, PLAIN_CHECKS all the way down). */
function plain(schema: z.ZodType): boolean {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  if (!PLAIN_TYPES.has(def.type as string)) return false;
  const checks = (def.checks ?? []) as Array<{ _zod: { def: { check: string; format?: string } } }>;
  for (const c of checks) {
    if (!PLAIN_CHECKS.has(c._zod.def.check)) return false;
    if (c._zod.def.check === "number_format" && c._zod.def.format !== "safeint") return false;
  }
  for (const inner of [def.innerType, def.element]) if (inner && !plain(inner as z.ZodType)) return false;
  return true;
}

/**
 * The configuration keys with a plain schema, each with its JSON Schema (input side): a value
 * from a file, the environment or `--set` is checked by the prebuilt validator, and Zod loads
 * only to word the error for a value it refuses (config/quick-check.ts).
 */
export function plainConfigKeys(
  keys: Record<string, { schema: () => z.ZodType }>,
): Array<[string, JsonSchema]> {
  return Object.entries(keys)
    .filter(([, spec]) => plain(spec.schema()))
    .map(([key, spec]) => [key, toJsonSchema(spec.schema(), "input")]);
}

/** The text of src/config/keys.gen.ts. */
export function generateKeyChecks(keys: Record<string, { schema: () => z.ZodType }>): string {
  const lines = [
    "// Generated by `npm run gen:schemas` (scripts/prebuilt.ts) from the schemas of src/config/keys.ts:",
    "// for each key whose schema is plain (see plainConfigKeys), ajv's standalone validator as text,",
    "// compiled on first use. Do not edit: test/config/quick-check.test.ts fails when this file",
    "// differs from what the key table makes.",
    "export const KEY_CHECKS: Readonly<Record<string, string>> = {",
  ];
  for (const [key, json] of plainConfigKeys(keys))
    lines.push(`  ${JSON.stringify(key)}: ${JSON.stringify(standaloneBody(json))},`);
  lines.push("};", "");
  return lines.join("\n");
}
