import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/declare/index.js";
import { testHost, textOf } from "../helpers/host.js";

const runs: unknown[] = [];
const edit = defineTool({
  name: "edit_file",
  description: "Replace text in a file.",
  parameters: z.object({
    path: z.string().describe("file to edit"),
    old: z.string(),
    new: z.string().max(100_000),
    count: z.number().int().positive().default(1),
    mode: z.enum(["exact", "regex"]).optional(),
    meta: z.object({ note: z.string() }).optional(),
  }),
  output: {
    schema: z.object({ replaced: z.number() }),
    render: (v: { replaced: number }) => `replaced ${v.replaced}`,
  },
  execute: (args) => {
    runs.push(args);
    return { replaced: args.count };
  },
});

const rawTool = defineTool({
  name: "raw_lookup",
  description: "A tool declared with a raw JSON Schema.",
  parameters: {
    type: "object",
    properties: {
      id: { type: "integer", description: "record id" },
      tags: { type: "array", items: { type: "string" } },
    },
    required: ["id"],
  },
  output: { schema: { type: "string" }, render: (v: string) => v },
  execute: (args) => `record ${String(args.id)}`,
});

const { host } = testHost([edit, rawTool]);
const call = (tool: string, args: unknown) => host.call({ tool, args });

describe("bad-call corpus: every bad call is a clear model-facing error, and the tool never runs", () => {
  const cases: Array<{ name: string; tool: string; args: unknown; code: string; says: RegExp[] }> = [
    {
      name: "wrong type (zod)",
      tool: "edit_file",
      args: { path: 1, old: "a", new: "b" },
      code: "invalid_arguments",
      says: [/\/path: expected string, received number/],
    },
    {
      name: "wrong type (ajv)",
      tool: "raw_lookup",
      args: { id: "seven" },
      code: "invalid_arguments",
      says: [/\/id: expected integer/, /received "seven"/],
    },
    {
      name: "wrong enum value",
      tool: "edit_file",
      args: { path: "a", old: "a", new: "b", mode: "fuzzy" },
      code: "invalid_arguments",
      says: [/\/mode: .*"exact".*"regex"/],
    },
    {
      name: "missing field (zod) names its type and description",
      tool: "edit_file",
      args: { old: "a", new: "b" },
      code: "invalid_arguments",
      says: [/\/path: is required: expected string \(file to edit\)/],
    },
    {
      name: "missing field (ajv)",
      tool: "raw_lookup",
      args: {},
      code: "invalid_arguments",
      says: [/\/id: is required: expected integer \(record id\)/],
    },
    {
      name: "extra field, with the nearest real name",
      tool: "edit_file",
      args: { path: "a", old: "a", new: "b", cuont: 2 },
      code: "invalid_arguments",
      says: [/\/cuont: is not a parameter; did you mean "count"\?/],
    },
    {
      name: "extra nested field",
      tool: "edit_file",
      args: { path: "a", old: "a", new: "b", meta: { note: "x", nope: 1 } },
      code: "invalid_arguments",
      says: [/\/meta\/nope: is not a parameter/],
    },
    {
      name: "extra field on a raw JSON Schema",
      tool: "raw_lookup",
      args: { id: 1, idd: 2 },
      code: "invalid_arguments",
      says: [/\/idd: is not a parameter; did you mean "id"\?/],
    },
    {
      name: "wrong item type in an array",
      tool: "raw_lookup",
      args: { id: 1, tags: ["a", 2] },
      code: "invalid_arguments",
      says: [/\/tags\/1: expected string/],
    },
    {
      name: "huge string past the schema's max",
      tool: "edit_file",
      args: { path: "a", old: "a", new: "x".repeat(200_000) },
      code: "invalid_arguments",
      says: [/\/new: .*100000/],
    },
    {
      name: "huge arguments past tools.argsMaxBytes",
      tool: "edit_file",
      args: JSON.stringify({ path: "a", old: "y".repeat(2_000_000), new: "b" }),
      code: "invalid_arguments",
      says: [/tools\.argsMaxBytes/, /\d+ bytes/],
    },
    {
      name: "deeply nested JSON (text)",
      tool: "edit_file",
      args: `{"path":"a","old":"a","new":"b","meta":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
      code: "invalid_arguments",
      says: [/nested more than 64 levels/],
    },
    {
      name: "deeply nested JSON (parsed value)",
      tool: "raw_lookup",
      args: { id: 1, tags: nest(5000) },
      code: "invalid_arguments",
      says: [/\/tags(\/0)+: nested more than 64 levels/],
    },
    {
      name: "unparseable JSON",
      tool: "edit_file",
      args: '{"path": "a", "old": ',
      code: "invalid_json",
      says: [/not valid JSON/, /Send one JSON object/],
    },
    {
      name: "JSON that is not an object",
      tool: "edit_file",
      args: "[1, 2]",
      code: "invalid_arguments",
      says: [/expected a JSON object of named parameters, received an array/],
    },
    {
      name: "a bare string",
      tool: "edit_file",
      args: '"edit it"',
      code: "invalid_arguments",
      says: [/received a string/],
    },
    {
      name: "several faults at once: every field listed",
      tool: "edit_file",
      args: { path: 3, new: false },
      code: "invalid_arguments",
      says: [/\/path: expected string/, /\/old: is required/, /\/new: expected string/, /Fix these fields/],
    },
  ];

  it.each(cases)("$name", async ({ tool, args, code, says }) => {
    runs.length = 0;
    const result = await call(tool, args);
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe(code);
    for (const re of says) expect(textOf(result)).toMatch(re);
    expect(runs).toEqual([]);
  });

  it("a good call after the bad ones runs, with defaults applied", async () => {
    runs.length = 0;
    const result = await call("edit_file", '{"path":"a","old":"x","new":"y"}');
    expect(result).toEqual({
      tool: "edit_file",
      isError: false,
      content: [{ type: "text", text: "replaced 1" }],
      truncated: false,
      // the canonical value beside the text the model reads
      value: { replaced: 1 },
    });
    expect(runs).toEqual([{ path: "a", old: "x", new: "y", count: 1 }]);
  });

  it("empty argument text means no arguments", async () => {
    const result = await call("edit_file", "  ");
    expect(result.error?.code).toBe("invalid_arguments");
    expect(textOf(result)).toMatch(/\/path: is required/);
  });

  it("an unknown tool lists the nearest names", async () => {
    const result = await call("edit_fle", {});
    expect(result.error?.code).toBe("unknown_tool");
    expect(textOf(result)).toMatch(/no tool named "edit_fle"\. Did you mean edit_file\?/);
    const far = await call("zzzzzzzzzzzz", {});
    expect(textOf(far)).toMatch(/Available tools: edit_file, raw_lookup/);
  });
});

function nest(depth: number): unknown {
  let v: unknown = "leaf";
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}
