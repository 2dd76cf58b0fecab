import { defineTool, GLOBAL_LAYER, Toolplane } from "toolplane";
import { z } from "zod";

export const weather = defineTool({
  name: "weather",
  description: "Current weather for a city. Not for forecasts.",
  parameters: z.object({ city: z.string().describe("City name, e.g. Lisbon") }),
  output: {
    schema: z.object({ city: z.string(), tempC: z.number() }),
    render: (v) => `${v.city}: ${v.tempC} °C`,
  },
  execute: async ({ city }) => ({ city, tempC: city.length + 10 }),
  timeoutMs: 5_000,
  concurrencySafe: true,
  permission: { action: "network", patterns: ({ city }) => [city] },
});

export async function main(cwd: string, env?: NodeJS.ProcessEnv) {
  // One tool layer for a working directory: config layers, built-in tools, skills, MCP servers.
  const plane = await Toolplane.open({ cwd, scope: "session-1>agent:reviewer", ...(env ? { env } : {}) });
  plane.tools.register(GLOBAL_LAYER, { name: "weather", enumerate: () => [weather] });
  // { tools, system, attachments, deferred, budget, prefixHash, ... }: send `attachments` as a
  // message after the cached prefix (attachmentsText joins them)
  const catalog = await plane.catalog("anthropic");
  const [result] = await plane
    .host({ ask: async () => true })
    .run([{ id: "call_1", tool: "weather", args: '{"city":"Lisbon"}' }]);
  await plane.close();
  return { catalog, result };
}
