import { describe, expect, it } from "vitest";
import { CHECKERS } from "../helpers/provider-rules.js";

// The checkers must be able to fail: each known-bad tool below breaks one documented rule.
describe("provider rule checkers catch what the documentation forbids", () => {
  const obj = (extra: Record<string, unknown> = {}) => ({
    type: "object",
    properties: { a: { type: "string" } },
    required: ["a"],
    ...extra,
  });
  it.each([
    ["anthropic", { name: "a.b", description: "", input_schema: obj() }, "/name"],
    [
      "anthropic",
      { name: "a", description: "", input_schema: { oneOf: [obj()], type: "object" } },
      "top level",
    ],
    ["anthropic", { name: "a", description: "", input_schema: obj(), timeoutMs: 5 }, "not a field"],
    [
      "openai-chat",
      { type: "function", function: { name: "a", description: "", parameters: obj(), strict: true } },
      "additionalProperties",
    ],
    [
      "openai-chat",
      {
        type: "function",
        function: {
          name: "a",
          description: "",
          parameters: {
            ...obj({ additionalProperties: false }),
            properties: { a: { type: "string", minLength: 2 } },
          },
          strict: true,
        },
      },
      "minLength",
    ],
    [
      "openai-responses",
      {
        type: "function",
        name: "a",
        description: "",
        parameters: obj({
          additionalProperties: false,
          properties: { a: { type: "string" }, b: { type: "string" } },
        }),
        strict: true,
      },
      "every property",
    ],
    [
      "gemini",
      { name: "a", description: "", parameters: obj({ additionalProperties: false }) },
      "additionalProperties",
    ],
    ["gemini", { name: "a", description: "", parameters: { type: "object", properties: {} } }, "non-empty"],
    [
      "gemini",
      {
        name: "a",
        description: "",
        parameters: obj({ properties: { a: { type: "integer", enum: [1, 2] } } }),
      },
      "strings",
    ],
    [
      "gemini",
      { name: "a", description: "", parameters: obj({ properties: { a: { type: ["string", "null"] } } }) },
      "/type",
    ],
    ["gemini", { name: "a", description: "", parameters: obj({ properties: { a: { $ref: "#" } } }) }, "$ref"],
    [
      "gemini",
      { name: "a", description: "", parameters: obj({ properties: { a: { type: "array" } } }) },
      "items",
    ],
    ["mcp", { name: "a b", description: "", inputSchema: obj() }, "/name"],
    ["mcp", { name: "a", description: "", inputSchema: { type: "string" } }, "type object"],
  ])("%s rejects a tool that breaks a rule (%#)", (provider, tool, fragment) => {
    const violations = CHECKERS[provider]!(tool);
    expect(violations.join("\n")).toContain(fragment);
  });

  it("accepts good tools", () => {
    const closed = obj({ additionalProperties: false });
    expect(CHECKERS.anthropic!({ name: "a", description: "", input_schema: obj() })).toEqual([]);
    expect(
      CHECKERS["openai-chat"]!({
        type: "function",
        function: { name: "a", description: "", parameters: closed, strict: true },
      }),
    ).toEqual([]);
    expect(CHECKERS.gemini!({ name: "a", description: "", parameters: obj() })).toEqual([]);
    expect(CHECKERS.mcp!({ name: "a.b", description: "", inputSchema: obj() })).toEqual([]);
  });
});
