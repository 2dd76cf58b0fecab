import { describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/index.js";
import { projectTool } from "../../src/declare/index.js";
import { GLOBAL_LAYER } from "../../src/register/index.js";
import { renderCatalog, supportedProviders } from "../../src/render/index.js";
import { findLeaks, publishedHostKeys } from "../helpers/leak.js";
import { tempDir } from "../helpers/tmp.js";
import { SENTINEL_TEXT, SENTINEL_TIMEOUT, sentinelTool } from "../helpers/tools.js";

describe("no host-only field reaches a model request", () => {
  it("walks every rendered tool of every provider", async () => {
    const cwd = tempDir("tp-leak-");
    const plane = await Toolplane.open({ cwd, env: { HOME: cwd, TOOLPLANE_TOOLS_EXAMPLES: "true" } });
    plane.tools.register(GLOBAL_LAYER, { name: "sentinel", enumerate: () => [sentinelTool()] });
    const tools = await plane.visibleTools();
    expect(tools.map((t) => t.name)).toContain("ticket_status");
    expect(tools.map((t) => t.name)).toContain("sentinel_tool");
    const providers = supportedProviders();
    expect(providers).toEqual(["anthropic", "openai-chat", "openai-responses", "gemini", "mcp"]);
    for (const provider of providers) {
      const catalog = await plane.catalog(provider);
      expect(catalog.tools).toHaveLength(tools.length);
      // an MCP entry lists the output schema by design (tools/list, 2025-06-18); nothing else may show
      const leaks = findLeaks(
        { tools: catalog.tools, system: catalog.system },
        [SENTINEL_TIMEOUT, SENTINEL_TEXT],
        publishedHostKeys(provider),
      );
      expect(leaks, `${provider}: ${leaks.join(", ")}`).toEqual([]);
      for (const tool of tools) {
        // the projection every adapter renders from must itself be clean
        expect(findLeaks(projectTool(tool), [SENTINEL_TIMEOUT, SENTINEL_TEXT])).toEqual([]);
        const one = renderCatalog({ provider, tools: [projectTool(tool)], budgetChars: 1e6 });
        expect(findLeaks(one.tools, [SENTINEL_TIMEOUT, SENTINEL_TEXT])).toEqual([]);
      }
    }
  });

  it("the walker itself catches each kind of leak", () => {
    expect(findLeaks({ a: () => 1 })).toEqual(["/a: function"]);
    expect(findLeaks({ timeoutMs: 5 })).toEqual(["/timeoutMs: host key"]);
    expect(findLeaks({ x: { concurrencySafe: true } })).toEqual(["/x/concurrencySafe: host key"]);
    expect(findLeaks({ n: SENTINEL_TIMEOUT }, [SENTINEL_TIMEOUT])).toHaveLength(1);
    // a parameter named like a host field is the model's and is not a leak
    expect(findLeaks({ properties: { output: { type: "string" } } })).toEqual([]);
  });
});
