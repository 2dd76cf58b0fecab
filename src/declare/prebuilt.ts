import { freezeFresh } from "../util/freeze.js";

/** The JsonSchema of types.ts, written out: types.ts imports this file. */
type JsonSchema = { [key: string]: unknown };

// A registered symbol: a JSON Schema (plain data from a user or an MCP server) can never carry it.
const PREBUILT = Symbol.for("toolplane.prebuiltSchema");

/** What ajv's standalone code exports: a validator that sets `errors` when it returns false. */
export interface StandaloneValidate {
  (data: unknown): boolean;
  errors?: unknown[] | null;
}

/**
 * A schema made at build time: the JSON Schema Zod made from a declaration, and ajv's standalone
 * validator compiled from it (scripts/prebuilt.ts writes both into a `schema.gen.ts`). The
 * built-in tools are declared this way so that neither Zod nor ajv loads, and no schema is built,
 * on a CLI's cold path. `T` is the value the validator accepts (the declaration's Zod type).
 */
export interface PrebuiltSchema<T = unknown> {
  readonly [PREBUILT]: true;
  readonly json: JsonSchema;
  /** Compiled on first read when the module gave it as text (see prebuiltSchema). */
  readonly validate: StandaloneValidate;
  /** The validator writes into the value (defaults): validate a copy, so a caller's is never changed. */
  readonly mutates: boolean;
  /** Type only: the value the validator accepts. */
  readonly __value?: T;
}

/**
 * `validator` is the standalone code as text (the generated modules give it so) or a function.
 * Text is compiled on first use, by `new Function`: parsed at load, the built-in tools'
 * validators (~250 KB) were over a quarter of the code a `catalog` parsed (871 KB) before its
 * first line of work, and most commands validate nothing, while a string literal is only
 * scanned. The text is toolplane's own, written at build time (test/declare/prebuilt.test.ts
 * checks it is what ajv makes from the declaration), never input; ajv compiles a raw schema the
 * same way at run time.
 */
export function prebuiltSchema<T>(
  json: JsonSchema,
  validator: string | StandaloneValidate,
  mutates: boolean,
): PrebuiltSchema<T> {
  let compiled = typeof validator === "function" ? validator : undefined;
  // the generated module made `json` for this call alone: frozen, a projection shares it as it is
  return Object.freeze({
    [PREBUILT]: true as const,
    json: freezeFresh(json),
    mutates,
    get validate(): StandaloneValidate {
      compiled ??= new Function(validator as string)() as StandaloneValidate;
      return compiled;
    },
  });
}

export function isPrebuiltSchema(schema: unknown): schema is PrebuiltSchema {
  return (
    typeof schema === "object" && schema !== null && (schema as Record<symbol, unknown>)[PREBUILT] === true
  );
}
