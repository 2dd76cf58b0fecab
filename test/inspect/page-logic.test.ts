import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/declare/index.js";
import { collectArgs, type FieldValue, fieldsOf } from "../../src/inspect/page/fields.js";
import { cutSegments } from "../../src/inspect/page/markers.js";
import { builtinProvider } from "../../src/tools/index.js";

describe("the call form's fields come from the schema", () => {
  it("gives each top-level parameter an input of its kind, whatever the tool", () => {
    const tool = defineTool({
      name: "demo",
      description: "demo",
      parameters: z.object({
        path: z.string().describe("where"),
        limit: z.number().int().optional(),
        ratio: z.number().default(0.5),
        all: z.boolean().optional(),
        mode: z.enum(["fast", "slow"]),
        tags: z.array(z.string()).optional(),
      }),
      output: { schema: z.string(), render: (v: string) => v },
      execute: () => "ok",
    });
    const fields = fieldsOf(tool.parameters);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ["path", "string", true],
      ["limit", "integer", false],
      ["ratio", "number", false],
      ["all", "boolean", false],
      ["mode", "enum", true],
      ["tags", "json", false],
    ]);
    expect(fields[0]!.description).toBe("where");
    expect(fields[4]!.choices).toEqual(['"fast"', '"slow"']);
    expect(fields[2]!.placeholder).toBe("0.5");
  });

  it("follows the built-in tools' schemas as declared (a new parameter shows up by itself)", async () => {
    const tools = await builtinProvider([]).enumerate(new AbortController().signal);
    const list = Array.isArray(tools) ? tools : (tools as { entries: typeof tools }).entries;
    for (const tool of list as Array<{ name: string; parameters: { properties?: object } }>) {
      const names = fieldsOf(tool.parameters).map((f) => f.name);
      expect(names, tool.name).toEqual(Object.keys(tool.parameters.properties ?? {}));
    }
  });

  it("collects arguments: empty fields left out, numbers and JSON parsed, bad input named", () => {
    const fields = fieldsOf({
      type: "object",
      properties: {
        q: { type: "string" },
        n: { type: ["integer", "null"] },
        on: { type: "boolean" },
        pick: { enum: [1, "two"] },
        extra: { type: "object" },
      },
      required: ["q"],
    });
    const values = (v: Record<string, FieldValue>) => new Map(Object.entries(v));
    expect(
      collectArgs(
        fields,
        values({
          q: { text: "x" },
          n: { text: "3" },
          on: { flag: false },
          pick: { text: "1" },
          extra: { text: '{"a":1}' },
        }),
      ),
    ).toEqual({ args: { q: "x", n: 3, on: false, pick: 1, extra: { a: 1 } } });
    expect(
      collectArgs(fields, values({ q: { text: "" }, on: { flag: "unset" }, extra: { text: "" } })),
    ).toEqual({
      args: {},
    });
    expect(collectArgs(fields, values({ n: { text: "abc" } }))).toEqual({
      error: 'n must be a number, got "abc"',
    });
    expect(collectArgs(fields, values({ extra: { text: "{" } }))).toMatchObject({
      error: expect.stringContaining("extra is not valid JSON"),
    });
  });
});

describe("cut markers are found where the text says so", () => {
  it("splits out the host's and the tools' markers and keeps every character", () => {
    const text =
      "1\tabc … [line cut: 3000 more bytes, 5000 in all]\n(lines 1-2000 shown; more follow: read again with offset=2001)\n" +
      "[output too large to show inline: 9 bytes, 2 lines saved to /tmp/x]\nplain text [not a marker]\n" +
      "desc…[cut]\n(3 lines cut, each where its marker says; grep can search inside them)";
    const segs = cutSegments(text);
    expect(segs.map((s) => s.text).join("")).toBe(text);
    expect(segs.filter((s) => s.cut).map((s) => s.text)).toEqual([
      " … [line cut: 3000 more bytes, 5000 in all]",
      "(lines 1-2000 shown; more follow: read again with offset=2001)",
      "[output too large to show inline: 9 bytes, 2 lines saved to /tmp/x]",
      "…[cut]",
      "(3 lines cut, each where its marker says; grep can search inside them)",
    ]);
    expect(cutSegments("nothing cut here")).toEqual([{ text: "nothing cut here", cut: false }]);
  });
});
