import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DeclarationError, DRAFT_07, defineTool, projectTool } from "../../src/declare/index.js";

const base = {
  name: "ok_tool",
  description: "does a thing",
  parameters: z.object({ a: z.string() }),
  output: { schema: z.string(), render: (v: string) => v },
  execute: () => "x",
};

describe("defineTool", () => {
  it.each([
    ["name", { name: "has space" }],
    ["name", { name: "x".repeat(65) }],
    ["name", { name: "" }],
    ["name", { name: "dots.not.ok" }],
    ["parameters", { parameters: z.string() }],
    ["parameters", { parameters: { type: "array", items: {} } }],
    ["parameters", { parameters: undefined }],
    ["output", { output: undefined }],
    ["output.render", { output: { schema: z.string() } }],
    ["output.schema", { output: { render: () => "" } }],
    ["execute", { execute: "nope" }],
    ["timeoutMs", { timeoutMs: -1 }],
    ["description", { description: "  " }],
    // a selection test that cannot fail: one side empty
    [
      "selection.shouldNotSelect",
      { selection: { shouldSelect: [{ task: "look up x" }], shouldNotSelect: [] } },
    ],
    ["selection.shouldSelect", { selection: { shouldSelect: [], shouldNotSelect: [{ task: "send mail" }] } }],
    [
      "selection.shouldSelect[1]",
      { selection: { shouldSelect: [{ task: "a" }, { args: {} }], shouldNotSelect: [{ task: "b" }] } },
    ],
    [
      "selection.shouldNotSelect[0]",
      { selection: { shouldSelect: [{ task: "a" }], shouldNotSelect: ["b"] } },
    ],
  ])("rejects a bad %s at definition time, naming tool and rule", (rule, patch) => {
    const decl = { ...base, ...patch } as never;
    let caught: unknown;
    try {
      defineTool(decl);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DeclarationError);
    const err = caught as DeclarationError;
    expect(err.rule).toBe(rule);
    expect(err.message).toContain(`"${(decl as { name: string }).name}"`);
  });

  it("accepts names at the edge of the rule", () => {
    expect(defineTool({ ...base, name: "a".repeat(64) }).name).toHaveLength(64);
    expect(defineTool({ ...base, name: "A-b_9" }).name).toBe("A-b_9");
  });

  it("emits draft-07 for zod and normalises raw schemas", () => {
    const zodTool = defineTool({ ...base, parameters: z.object({ n: z.number().default(3) }) });
    expect(zodTool.parameters.$schema).toBe(DRAFT_07);
    expect(zodTool.parameters.required).toBeUndefined(); // a defaulted field is optional on input
    const raw = defineTool({
      ...base,
      parameters: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { p: { $ref: "#/$defs/P" } },
        $defs: { P: { type: "string" } },
      },
    });
    expect(raw.parameters.$schema).toBe(DRAFT_07);
    expect(raw.parameters.definitions).toEqual({ P: { type: "string" } });
    expect(JSON.stringify(raw.parameters)).not.toContain("$defs");
    expect(raw.validateInput({ p: "x" }).ok).toBe(true);
    expect(raw.validateInput({ p: 1 }).ok).toBe(false);
  });

  it("builds the JSON schema only when it is read", () => {
    let reads = 0;
    const shape = z.object({ a: z.string() });
    const spy = new Proxy(shape, {
      get(target, key, receiver) {
        if (key === "_zod") reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const tool = defineTool({ ...base, parameters: spy });
    const before = reads;
    expect(tool.name).toBe("ok_tool");
    expect(reads).toBe(before);
    void tool.parameters;
    expect(reads).toBeGreaterThan(before);
  });

  it("validates input with zod defaults and names the field on error", () => {
    const tool = defineTool({
      ...base,
      parameters: z.object({ id: z.string(), flag: z.boolean().default(false) }),
    });
    expect(tool.validateInput({ id: "x" })).toEqual({ ok: true, value: { id: "x", flag: false } });
    const bad = tool.validateInput({ id: 3 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues[0]?.path).toBe("/id");
  });

  it("validates raw schemas with ajv, naming missing and extra fields", () => {
    const tool = defineTool({
      ...base,
      parameters: {
        type: "object",
        properties: { a: { type: "string" } },
        required: ["a"],
        additionalProperties: false,
      },
    });
    const bad = tool.validateInput({ b: 1 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues.map((i) => i.path).sort()).toEqual(["/a", "/b"]);
  });

  it("projects an allowlist copy", () => {
    const tool = defineTool(base);
    const p = projectTool(tool);
    expect(Object.keys(p).sort()).toEqual(["description", "name", "parameters"]);
    // the schema defineTool built is frozen all the way down, so the projection shares it: no
    // change can reach it, through the projection or the tool
    expect(() => {
      (p.parameters as { mutated?: boolean }).mutated = true;
    }).toThrow(TypeError);
    expect(() => {
      (p.parameters.properties as { a: { type: string } }).a.type = "number";
    }).toThrow(TypeError);
    expect(tool.parameters).not.toHaveProperty("mutated");
    // a schema that is not defineTool's (a hand-made tool) is still copied
    const hand = { ...tool, parameters: { type: "object", properties: {} } };
    const copy = projectTool(hand);
    (copy.parameters as { mutated?: boolean }).mutated = true;
    expect(hand.parameters).not.toHaveProperty("mutated");
  });
});
