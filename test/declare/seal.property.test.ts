import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normaliseRawSchema, sealedJsonSchema } from "../../src/declare/json-schema.js";
import type { JsonSchema } from "../../src/declare/types.js";
import { dropSafeIntegerBounds } from "../../src/render/schema/safe-bounds.js";

// The seal copies, rewrites and freezes a raw schema in one pass, and notes whether it holds a
// safe-integer bound, so the renderer skips its walk for most schemas. Checked against the
// two-pass copy (normaliseRawSchema) and against the walk itself on an unsealed copy.
const KEYS = [
  "type",
  "properties",
  "items",
  "$defs",
  "definitions",
  "$ref",
  "$schema",
  "minimum",
  "maximum",
  "enum",
  "__proto__",
  "description",
];
const leaf = fc.oneof(
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 0, 3),
  fc.string({ maxLength: 8 }),
  fc.constantFrom("#/$defs/a", "#/definitions/b", null, true),
);
const schema = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small" },
    leaf,
    fc.array(tie("node"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie("node"), { maxKeys: 5 }),
  ),
})).node;
const rootArb = fc.dictionary(fc.constantFrom(...KEYS), schema, { maxKeys: 6 });

function frozenThroughout(v: unknown): boolean {
  if (v === null || typeof v !== "object") return true;
  return Object.isFrozen(v) && Object.values(v).every(frozenThroughout);
}

/** A root object whose own keys are exactly these (a `__proto__` key an own property, as JSON.parse makes it). */
const own = (o: Record<string, unknown>): JsonSchema => JSON.parse(JSON.stringify(o)) as JsonSchema;

describe("the seal", () => {
  it("property: the one-pass seal is the two-pass copy, frozen throughout, and leaves the input alone", () => {
    fc.assert(
      fc.property(rootArb, (raw) => {
        const input = own(raw);
        const before = JSON.stringify(input);
        const sealed = sealedJsonSchema(input, "input");
        expect(JSON.stringify(sealed)).toBe(JSON.stringify(normaliseRawSchema(own(raw))));
        expect(frozenThroughout(sealed)).toBe(true);
        expect(JSON.stringify(input)).toBe(before);
        expect(Object.isFrozen(input)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("property: a sealed schema the renderer does not walk has no safe-integer bound to drop", () => {
    fc.assert(
      fc.property(rootArb, (raw) => {
        const sealed = sealedJsonSchema(own(raw), "input");
        const walked = dropSafeIntegerBounds(JSON.parse(JSON.stringify(sealed)));
        expect(JSON.stringify(dropSafeIntegerBounds(sealed))).toBe(JSON.stringify(walked));
      }),
      { numRuns: 300 },
    );
  });

  it("a function or a symbol in a raw schema is refused, as before", () => {
    expect(() =>
      sealedJsonSchema({ type: "object", properties: { f: (() => 1) as never } }, "input"),
    ).toThrow(/JSON data only, not a function/);
    const withSymbol = { type: "object", [Symbol("x")]: { type: "string" } } as unknown as JsonSchema;
    expect(Object.getOwnPropertySymbols(sealedJsonSchema(withSymbol, "input"))).toEqual([]);
  });
});
