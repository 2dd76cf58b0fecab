import { defineTool, GLOBAL_LAYER, Toolplane } from "toolplane";
import { z } from "zod";

// 1. Declare a tool: what the model sees (name, description, parameters) and what only the host
//    sees (output schema and render, execute, timeout, permission).
export const weather = defineTool({
  name: "weather",
  description: "Current weather for a city. Not for forecasts.",
  parameters: z.object({
    city: z.string().describe("City name, e.g. Lisbon"),
    units: z.enum(["metric", "imperial"]).optional().describe("Default metric"),
  }),
  output: {
    schema: z.object({ city: z.string(), temperature: z.number(), units: z.string() }),
    render: (v) => `${v.city}: ${v.temperature} ${v.units === "imperial" ? "°F" : "°C"}`,
  },
  execute: async ({ city, units = "metric" }) => ({ city, temperature: 18, units }),
  timeoutMs: 5_000,
  concurrencySafe: true,
});

export async function main({ cwd, env }: { cwd: string; env?: NodeJS.ProcessEnv }) {
  // 2. Open the tool layer for a working directory: configuration, the built-in coding tools,
  //    skills found on disk, MCP servers. Register your own tools beside them.
  const plane = await Toolplane.open({ cwd, ...(env ? { env } : {}) });
  plane.tools.register(GLOBAL_LAYER, { name: "my-tools", enumerate: () => [weather] });

  // 3. What the model sees, in one provider's wire form: `catalog.tools` goes into the request as
  //    it is, `catalog.system` into the system prompt, `catalog.attachments` into a message after
  //    the cached prefix.
  const catalog = await plane.catalog("openai-responses");

  // 4. The model's calls come back through the host: the wire form is restored (here the null
  //    OpenAI's strict mode makes the model send for `units`), the arguments validated, the
  //    permissions checked, the result cut to its limits. A bad call is an error result the
  //    model can read, never a throw.
  const host = plane.host({ provider: "openai-responses" });
  const results = await host.run([
    { id: "call_1", tool: "weather", args: '{"city":"Lisbon","units":null}' },
    { id: "call_2", tool: "weather", args: '{"town":"Porto"}' },
  ]);

  await plane.close();
  return { catalog, results };
}
