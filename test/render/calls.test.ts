import { describe, expect, it } from "vitest";
import { renderCatalog, restoreCall } from "../../src/render/index.js";

const parameters = {
  type: "object",
  properties: {
    path: { type: "string" },
    depth: { type: "integer" },
    level: { type: "integer", enum: [1, 2, 3] },
    opts: { type: "object", properties: { deep: { type: "boolean" } } },
  },
  required: ["path"],
};
const tools = [{ name: "fs.read", description: "Read.", parameters }];

describe("restoreCall maps a provider's call back to the tool", () => {
  it("OpenAI strict: nulls for optional properties mean left out; the name is restored", () => {
    const catalog = renderCatalog({ provider: "openai-chat", tools, budgetChars: 8000 });
    const call = restoreCall(catalog, "fs_read", { path: "a", depth: null, level: 2, opts: { deep: null } });
    expect(call).toEqual({ name: "fs.read", args: { path: "a", level: 2, opts: {} } });
  });

  it("Gemini: enum values sent as strings get their original value back", () => {
    const catalog = renderCatalog({ provider: "gemini", tools, budgetChars: 8000 });
    expect(restoreCall(catalog, "fs.read", { path: "a", level: "3" }, parameters)).toEqual({
      name: "fs.read",
      args: { path: "a", level: 3 },
    });
  });

  it("takes the JSON text a provider returns; text that is not a JSON object comes back as it was", () => {
    const catalog = renderCatalog({ provider: "openai-responses", tools, budgetChars: 8000 });
    const text = JSON.stringify({ path: "a", depth: null, level: null, opts: { deep: null } });
    expect(restoreCall(catalog, "fs_read", text)).toEqual({ name: "fs.read", args: { path: "a", opts: {} } });
    expect(restoreCall(catalog, "fs_read", text, parameters).args).toEqual({ path: "a", opts: {} });
    expect(restoreCall(catalog, "fs_read", "{not json").args).toBe("{not json");
  });
});
