// Values near a JSON Schema, for property tests that compare two validators of it.
import fc from "fast-check";
import type { JsonSchema } from "../../src/declare/types.js";

/**
 * Values near a schema: mostly what it accepts, with a wrong type, a value out of bounds, a field
 * left out or an unknown one mixed in at every level, so both sides of each check are reached.
 */
export function near(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const wrong = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.string({ maxLength: 3 }),
    fc.constant([]),
    fc.constant({}),
  );
  const options: fc.Arbitrary<unknown>[] = [];
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    for (const branch of (schema.anyOf ?? schema.oneOf) as JsonSchema[]) options.push(near(branch, depth));
  } else if ("const" in schema) {
    options.push(fc.constant(schema.const), fc.constant(schema.const), fc.constant("other"));
  } else if (Array.isArray(schema.enum)) {
    options.push(fc.constantFrom(...schema.enum), fc.constantFrom(...schema.enum), fc.constant("other"));
  } else {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    for (const type of types) {
      if (type === "string")
        options.push(
          fc.string({ maxLength: 4 }),
          fc.constant(""),
          fc.string({ minLength: 199, maxLength: 202 }),
        );
      if (type === "integer" || type === "number")
        options.push(
          fc.integer({ min: -3, max: 3 }),
          fc.integer(),
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.constantFrom(2000, 2001, 2 ** 53, -(2 ** 53)),
        );
      if (type === "boolean") options.push(fc.boolean());
      if (type === "null") options.push(fc.constant(null));
      if (type === "array")
        options.push(
          fc.array(depth > 3 ? wrong : near((schema.items ?? {}) as JsonSchema, depth + 1), { maxLength: 3 }),
        );
      if (type === "object") {
        const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
        const fields = Object.fromEntries(
          Object.entries(props).map(([k, s]) => [k, depth > 3 ? wrong : near(s, depth + 1)]),
        );
        options.push(
          fc.record(fields, { requiredKeys: (schema.required ?? []) as string[] }),
          fc.record(fields, { requiredKeys: [] }),
          fc.tuple(fc.record(fields), fc.constantFrom("unknown", "__proto__"), wrong).map(([o, k, v]) => {
            const out: Record<string, unknown> = { ...o };
            Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
            return out;
          }),
        );
        if (schema.additionalProperties && typeof schema.additionalProperties === "object")
          options.push(
            fc.dictionary(
              fc.string({ maxLength: 3 }),
              near(schema.additionalProperties as JsonSchema, depth + 1),
              { maxKeys: 2 },
            ),
          );
      }
    }
  }
  return fc.oneof({ weight: 6, arbitrary: fc.oneof(...options) }, { weight: 1, arbitrary: wrong });
}
