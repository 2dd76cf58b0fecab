import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/declare/index.js";
import { projectTool } from "../../src/declare/project.js";
import { renderTool, type SchemaConversion } from "../../src/render/index.js";
import { dropSafeIntegerBounds } from "../../src/render/schema/safe-bounds.js";

const SAFE = String(Number.MAX_SAFE_INTEGER);

const counter = defineTool({
  name: "counter",
  description: "Counts things.",
  parameters: z.object({
    any: z.number().int().describe("any whole number"),
    positive: z.number().int().min(1),
    small: z.int().max(5),
    list: z.array(z.object({ n: z.number().int() })).optional(),
    pick: z.enum(["a", "b"]).default("a"),
  }),
  output: { schema: z.object({}), render: () => "ok" },
  execute: () => ({}),
});

describe("safe-integer bounds", () => {
  it("zod's .int() emits them (the reason for this step)", () => {
    expect(JSON.stringify(counter.parameters)).toContain(SAFE);
  });

  it.each(["anthropic", "openai-chat", "openai-responses", "gemini", "mcp"] as const)(
    "%s: dropped everywhere in the schema, real bounds kept, each drop noted",
    (provider) => {
      const notes: SchemaConversion[] = [];
      const wire = JSON.stringify(renderTool(provider, projectTool(counter), notes));
      expect(wire).not.toContain(SAFE);
      expect(wire).toContain('"minimum":1');
      expect(wire).toContain('"maximum":5');
      const dropped = notes.filter((n) => n.change.includes("safe-integer bound"));
      // any: min+max; positive: max; small: min; list[].n: min+max
      expect(dropped.map((n) => n.path).sort()).toEqual(
        [
          "/properties/any/maximum",
          "/properties/any/minimum",
          "/properties/list/items/properties/n/maximum",
          "/properties/list/items/properties/n/minimum",
          "/properties/positive/maximum",
          "/properties/small/minimum",
        ].sort(),
      );
    },
  );

  it("leaves data alone, and returns the same object when there is nothing to drop", () => {
    const schema = {
      type: "object",
      properties: {
        n: { type: "integer", default: Number.MAX_SAFE_INTEGER, enum: [Number.MAX_SAFE_INTEGER] },
      },
    };
    expect(dropSafeIntegerBounds(schema)).toBe(schema);
    const withBound = {
      type: "object",
      properties: { n: { type: "integer", maximum: Number.MAX_SAFE_INTEGER } },
    };
    const out = dropSafeIntegerBounds(withBound);
    expect(out).toEqual({ type: "object", properties: { n: { type: "integer" } } });
    expect(withBound.properties.n.maximum).toBe(Number.MAX_SAFE_INTEGER); // the input is not mutated
  });
});
