import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** The text blocks of an MCP tool result. */
function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return content.map((c) => c.text ?? "").join("\n");
}

export async function main(options: { cwd: string; env?: Record<string, string>; set?: string[] }) {
  const { cwd, env, set = [] } = options;
  // `toolplane serve` speaks MCP on stdio: any MCP client starts it as a command
  const transport = new StdioClientTransport({
    command: "npx",
    args: ["toolplane", "serve", "--cwd", cwd, ...set.flatMap((s) => ["--set", s])],
    ...(env ? { env } : {}),
  });
  const client = new Client({ name: "my-harness", version: "1.0.0" });
  await client.connect(transport);
  try {
    // deferred tools are listed by name in the server's instructions; tool_search loads them
    const instructions = client.getInstructions() ?? "";
    const before = (await client.listTools()).tools.map((t) => t.name);
    const found = textOf(
      await client.callTool({ name: "tool_search", arguments: { query: "ticket status" } }),
    );
    // the server sends tools/list_changed: the loaded tool is listed from now on
    const after = (await client.listTools()).tools.map((t) => t.name);
    const status = textOf(
      await client.callTool({ name: "ticket_status", arguments: { ticket_id: "T-1001" } }),
    );
    return { instructions, before, found, after, status };
  } finally {
    await client.close();
  }
}
