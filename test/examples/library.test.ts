import { describe, expect, it } from "vitest";
import { main } from "../../examples/library/weather.js";
import { tempProject } from "../helpers/tmp.js";

describe("the README's library example", () => {
  it("registers a tool, renders it and runs a call through the host", async () => {
    const p = tempProject();
    const { catalog, result } = await main(p.repo, p.env);
    expect(JSON.stringify(catalog.tools)).toContain('"weather"');
    expect(catalog.prefixHash).toMatch(/^[0-9a-f]{64}$/);
    expect(result).toMatchObject({ id: "call_1", tool: "weather", isError: false });
    expect(result?.content).toEqual([{ type: "text", text: "Lisbon: 16 °C" }]);
  });
});
