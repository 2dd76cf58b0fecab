import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toAnthropic, toGemini, toMcp, toOpenAIStrict } from "../../src/render/index.js";
import { checkGemini, checkOpenAIChat } from "../helpers/provider-rules.js";

// biome-ignore lint/suspicious/noExplicitAny: tests read deep into converted schemas
const dig = (v: unknown) => v as any;
const deepFrozenCopy = (v: unknown) => JSON.parse(JSON.stringify(v));

describe("OpenAI strict conversion", () => {
  it("closes every object, requires every property and makes optional ones nullable", () => {
    const input = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        path: { type: "string", minLength: 1 },
        opts: { type: "object", properties: { depth: { type: "integer", default: 2 } } },
        mode: { const: "fast" },
        kind: { oneOf: [{ type: "string" }, { type: "number" }] },
      },
      required: ["path"],
    };
    const { schema, notes, strict } = toOpenAIStrict(input);
    expect(strict).toBe(true);
    expect(schema).toEqual({
      type: "object",
      properties: {
        path: { type: "string", description: "(minLength: 1)" },
        opts: {
          type: ["object", "null"],
          properties: { depth: { type: ["integer", "null"], description: "(default: 2)" } },
          required: ["depth"],
          additionalProperties: false,
        },
        mode: { type: ["string", "null"], enum: ["fast", null] },
        kind: { anyOf: [{ type: "string" }, { type: "number" }, { type: "null" }] },
      },
      required: ["path", "opts", "mode", "kind"],
      additionalProperties: false,
    });
    const changes = notes.map((n) => `${n.path} ${n.change}`);
    expect(changes).toContain("/properties/path/minLength moved minLength into the description");
    expect(changes).toContain("/properties/kind oneOf became anyOf");
    expect(changes).toContain("/properties/mode const became a one-value enum");
    expect(changes).toContain("/$schema removed $schema");
  });

  it("keeps $defs and rewrites definitions refs", () => {
    const { schema, strict } = toOpenAIStrict({
      type: "object",
      definitions: { node: { type: "object", properties: { next: { $ref: "#/definitions/node" } } } },
      properties: { root: { $ref: "#/definitions/node" } },
      required: ["root"],
    });
    expect(strict).toBe(true);
    expect(dig(schema).properties.root).toEqual({ $ref: "#/$defs/node" });
    expect(dig(schema).$defs.node.properties.next).toEqual({
      anyOf: [{ $ref: "#/$defs/node" }, { type: "null" }],
    });
    expect(
      checkOpenAIChat({
        type: "function",
        function: { name: "t", description: "", parameters: schema, strict },
      }),
    ).toEqual([]);
  });

  it("gives up strict mode, with a note, where it cannot express the schema", () => {
    const input = {
      type: "object",
      properties: { env: { type: "object", additionalProperties: { type: "string" } } },
    };
    const { schema, notes, strict } = toOpenAIStrict(input);
    expect(strict).toBe(false);
    expect(schema).toEqual(input);
    expect(notes[0]!.path).toBe("/properties/env");
    expect(notes[0]!.change).toMatch(/^strict mode off: an object with free-form keys/);
  });
});

describe("Gemini conversion", () => {
  it("inlines refs, folds allOf, turns oneOf into anyOf and const into enum, drops additionalProperties", () => {
    const input = {
      type: "object",
      $defs: { unit: { type: "string", enum: ["c", "f"] } },
      properties: {
        unit: { $ref: "#/$defs/unit" },
        level: { type: "integer", enum: [1, 2, 3] },
        shape: {
          allOf: [
            { type: "object", properties: { w: { type: "number" } }, required: ["w"] },
            { properties: { h: { type: "number" } } },
          ],
        },
        pick: { oneOf: [{ type: "string" }, { type: "null" }] },
        fixed: { const: 3 },
        extra: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
        maybe: { type: ["string", "null"], title: "Maybe" },
      },
      required: ["unit", "ghost"],
    };
    const { schema, notes } = toGemini(input);
    const p = dig(schema).properties;
    expect(p.unit).toEqual({ type: "string", enum: ["c", "f"] });
    expect(p.level).toEqual({ type: "integer", format: "enum", enum: ["1", "2", "3"] });
    expect(p.shape).toEqual({
      type: "object",
      properties: { w: { type: "number" }, h: { type: "number" } },
      required: ["w"],
    });
    expect(p.pick).toEqual({ type: "string", nullable: true });
    expect(p.fixed).toEqual({ type: "string", enum: ["3"] });
    expect(p.extra).toEqual({ type: "object", properties: { a: { type: "string" } } });
    expect(p.maybe).toEqual({ type: "string", nullable: true, description: '(title: "Maybe")' });
    expect(dig(schema).required).toEqual(["unit"]);
    expect(checkGemini({ name: "t", description: "", parameters: schema })).toEqual([]);
    const changes = notes.map((n) => `${n.path} ${n.change}`);
    expect(changes).toContain("/properties/unit/$ref inlined #/$defs/unit");
    expect(changes).toContain("/properties/shape folded allOf into one schema");
    expect(changes).toContain("/properties/extra/additionalProperties dropped additionalProperties");
    expect(changes).toContain("/properties/level/enum enum values written as strings");
  });

  it("cuts a recursive reference and leaves out an empty parameter object", () => {
    const { schema, notes } = toGemini({
      type: "object",
      definitions: {
        n: { type: "object", properties: { kid: { $ref: "#/definitions/n" }, v: { type: "string" } } },
      },
      properties: { tree: { $ref: "#/definitions/n" } },
    });
    expect(dig(schema).properties.tree.properties.kid.description).toMatch(/not expanded/);
    expect(notes.some((n) => n.change.startsWith("cut the recursive reference"))).toBe(true);
    expect(toGemini({ type: "object", properties: {} }).schema).toBeUndefined();
  });
});

describe("every conversion is pure", () => {
  const schemaArb = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: "small" },
      fc.record({ type: fc.constantFrom("string", "integer", "number", "boolean") }, { requiredKeys: [] }),
      fc.record({
        type: fc.constant("string"),
        enum: fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 3 }),
      }),
      fc.record({ type: fc.constant("array"), items: tie("node") }),
      fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
      fc.record({
        type: fc.constant("object"),
        properties: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), tie("node"), { maxKeys: 3 }),
        required: fc.constant(["a"]),
      }),
    ),
  }));
  it("never mutates its input, and gives the same output for the same input", () => {
    fc.assert(
      fc.property(schemaArb.node, (node) => {
        const root = { type: "object", properties: { a: node, b: node } };
        const before = JSON.stringify(root);
        for (const convert of [toOpenAIStrict, toGemini, toAnthropic, toMcp]) {
          const a = convert(root);
          expect(JSON.stringify(root)).toBe(before);
          expect(JSON.stringify(convert(deepFrozenCopy(root)))).toBe(JSON.stringify(a));
        }
        const g = toGemini(root);
        expect(checkGemini({ name: "t", description: "", parameters: g.schema })).toEqual([]);
        const o = toOpenAIStrict(root);
        expect(
          checkOpenAIChat({
            type: "function",
            function: { name: "t", description: "", parameters: o.schema, strict: o.strict },
          }),
        ).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

describe("self-referencing allOf", () => {
  const schema = {
    type: "object",
    properties: { a: { type: "string" }, kid: { allOf: [{ $ref: "#" }, { description: "a child" }] } },
  };
  it("ends for every provider", () => {
    expect(toOpenAIStrict(schema).strict).toBe(false);
    const g = toGemini(schema);
    expect(g.notes.some((n) => n.change === "cut the recursive reference #")).toBe(true);
    expect(checkGemini({ name: "t", description: "", parameters: g.schema })).toEqual([]);
    expect(toAnthropic(schema).schema).toBeDefined();
  });
});
