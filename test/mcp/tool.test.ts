import { describe, expect, it } from "vitest";
import { fromMcpContent } from "../../src/mcp/client/content.js";
import {
  actionFor,
  checkRemoteTool,
  mcpTool,
  passedOnHints,
  renderOutput,
} from "../../src/mcp/client/tool.js";
import { ctx } from "./peers.js";

describe("MCP tool annotations -> permission action", () => {
  it.each([
    [{ destructiveHint: true }, false, "mcp:destructive"],
    [{ destructiveHint: true, readOnlyHint: true }, true, "mcp:destructive"],
    [{ readOnlyHint: true }, false, "mcp:call"],
    [{ readOnlyHint: true }, true, "mcp:read"],
    [{ destructiveHint: false }, false, "mcp:call"],
    [{ destructiveHint: false }, true, "mcp:write"],
    [{}, false, "mcp:call"],
    [{}, true, "mcp:destructive"],
  ])("%j trusted=%s -> %s", (hints, trusted, action) => {
    expect(actionFor(hints, trusted)).toBe(action);
  });
});

describe("MCP tool annotations passed on by toolplane serve", () => {
  const reassuring = {
    title: "Lookup",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  };
  const warning = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

  it("an untrusted server's reassuring hints are dropped, its warnings kept", () => {
    expect(passedOnHints(reassuring, false)).toEqual({ title: "Lookup" });
    expect(passedOnHints(warning, false)).toEqual(warning);
  });

  it("a trusted server's hints all pass, and the declared tool carries them", () => {
    expect(passedOnHints(reassuring, true)).toEqual(reassuring);
    const remote = { name: "lookup", inputSchema: { type: "object" }, annotations: reassuring };
    const config = { command: "x", trusted: true };
    const tool = mcpTool({
      server: "s",
      config,
      qualifiedName: "mcp__s__lookup",
      remote,
      call: async () => ({}),
    } as never);
    expect(tool.host.annotations).toEqual(reassuring);
  });
});

describe("MCP content blocks", () => {
  it("converts every block type and never drops one", () => {
    const out = fromMcpContent([
      { type: "text", text: "t" },
      { type: "image", mimeType: "image/png", data: "AAA" },
      { type: "audio", mimeType: "audio/wav", data: "BBB" },
      { type: "resource_link", uri: "file:///a", name: "a", description: "the a file" },
      { type: "resource", resource: { uri: "file:///b", text: "bee" } },
      { type: "resource", resource: { uri: "file:///c", blob: "CCC", mimeType: "application/zip" } },
      { type: "hologram" },
    ]);
    expect(out).toEqual([
      { type: "text", text: "t" },
      { type: "image", mimeType: "image/png", data: "AAA" },
      { type: "file", mimeType: "audio/wav", data: "BBB" },
      { type: "text", text: "Resource link: a <file:///a> - the a file" },
      { type: "text", text: "Resource file:///b:\nbee" },
      { type: "file", mimeType: "application/zip", data: "CCC", name: "file:///c" },
      { type: "text", text: '[content of type "hologram" that toolplane cannot show]' },
    ]);
  });

  it("checks each block alone: a malformed one becomes a short note, its neighbours stay", () => {
    const out = fromMcpContent([
      { type: "text", text: "kept" },
      { type: "image", mimeType: "image/png" },
      { type: "text" },
      { type: "resource", resource: { uri: "file:///x" } },
      { type: "x".repeat(500) },
      null,
      { type: "text", text: "also kept" },
    ]);
    expect(out).toEqual([
      { type: "text", text: "kept" },
      {
        type: "text",
        text: '[a malformed "image" content block (no data or mimeType) that toolplane cannot show]',
      },
      { type: "text", text: '[a malformed "text" content block (no text) that toolplane cannot show]' },
      {
        type: "text",
        text: '[a malformed "resource" content block (neither resource.text nor resource.blob) that toolplane cannot show]',
      },
      { type: "text", text: `[content of type "${"x".repeat(40)}…" that toolplane cannot show]` },
      { type: "text", text: "[content of type (none) that toolplane cannot show]" },
      { type: "text", text: "also kept" },
    ]);
  });

  it("a structured-only result renders as its JSON", () => {
    expect(renderOutput({ content: [], structuredContent: { a: 1 } })).toBe('{\n  "a": 1\n}');
  });
});

describe("checking listed tools", () => {
  it("accepts a 2020-12 schema with $defs and rejects broken ones with the reason", () => {
    const ok = checkRemoteTool(
      {
        name: "x",
        inputSchema: {
          $schema: "https://json-schema.org/draft/2020-12/schema",
          type: "object",
          properties: { p: { $ref: "#/$defs/P" } },
          $defs: { P: { type: "string" } },
        },
      },
      0,
    );
    expect(ok.ok).toBe(true);
    expect(checkRemoteTool({ inputSchema: { type: "object" } }, 3)).toEqual({
      ok: false,
      name: "#3",
      problem: "the tool has no name",
    });
    const bad = checkRemoteTool({ name: "y", inputSchema: { type: "object", required: "p" } }, 0);
    expect(bad).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/inputSchema is not valid JSON Schema/),
    });
  });

  it("rejects a schema whose $ref resolves to nothing, in the input or the output schema", () => {
    const withRef = (ref: string) => ({
      type: "object",
      properties: { p: { $ref: ref } },
      definitions: { P: {} },
    });
    expect(checkRemoteTool({ name: "a", inputSchema: withRef("#/definitions/P") }, 0).ok).toBe(true);
    expect(checkRemoteTool({ name: "a", inputSchema: withRef("#") }, 0).ok).toBe(true);
    expect(checkRemoteTool({ name: "b", inputSchema: withRef("#/definitions/Q") }, 0)).toMatchObject({
      ok: false,
      problem:
        'inputSchema: $ref "#/definitions/Q" points to nothing in the schema; the tool could never be called',
    });
    expect(checkRemoteTool({ name: "c", inputSchema: withRef("other.json#/x") }, 0)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^inputSchema: a \$ref cannot be resolved/),
    });
    // an output schema is used nested under structuredContent: its definitions still resolve
    expect(
      checkRemoteTool(
        { name: "d", inputSchema: { type: "object" }, outputSchema: withRef("#/definitions/P") },
        0,
      ).ok,
    ).toBe(true);
    expect(
      checkRemoteTool(
        { name: "e", inputSchema: { type: "object" }, outputSchema: withRef("#/definitions/Z") },
        0,
      ),
    ).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^outputSchema: \$ref "#\/definitions\/Z"/),
    });
    // "$ref" as a property name or inside const is data, not a reference
    const data = { type: "object", properties: { $ref: { type: "string", const: { $ref: "#/nowhere" } } } };
    expect(checkRemoteTool({ name: "f", inputSchema: data }, 0).ok).toBe(true);
  });

  it("an isError result becomes a thrown error with the server's text; $defs refs still validate", async () => {
    const tool = mcpTool({
      server: "s",
      config: { command: "x" },
      qualifiedName: "mcp__s__x",
      remote: {
        name: "x",
        inputSchema: {
          type: "object",
          properties: { p: { $ref: "#/$defs/P" } },
          $defs: { P: { type: "string", enum: ["a"] } },
        },
      },
      call: async (_name, args) =>
        args.p === "a"
          ? { isError: true, content: [{ type: "text", text: "quota exceeded" }] }
          : { content: [] },
    });
    expect(tool.validateInput({ p: "a" }).ok).toBe(true);
    expect(tool.validateInput({ p: "b" }).ok).toBe(false);
    await expect(tool.host.execute({ p: "a" }, ctx())).rejects.toThrow("quota exceeded");
  });
});
