import Anthropic from "@anthropic-ai/sdk";
import { attachmentsText, Toolplane, type ToolResult } from "toolplane";

/** A tool result's content as Anthropic `tool_result` blocks. */
function resultBlocks(result: ToolResult): Anthropic.ToolResultBlockParam["content"] {
  return result.content.map((block) =>
    block.type === "text"
      ? { type: "text" as const, text: block.text }
      : { type: "text" as const, text: `[${block.type}: ${block.mimeType}]` },
  );
}

export async function main(options: {
  cwd: string;
  prompt: string;
  baseURL?: string;
  env?: NodeJS.ProcessEnv;
  set?: string[];
}) {
  const { cwd, prompt, baseURL, env, set = [] } = options;
  const plane = await Toolplane.open({ cwd, set, ...(env ? { env } : {}) });
  const client = new Anthropic({
    apiKey: env?.ANTHROPIC_API_KEY ?? "sk-ant-...",
    ...(baseURL ? { baseURL } : {}),
  });
  // the host answers the calls of the anthropic catalog: its renamed tools, its deferral form
  const host = plane.host({ provider: "anthropic", ask: async () => false });
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: prompt }];

  for (let turn = 0; turn < 10; turn++) {
    // read every turn: a tool loaded, a skill added or a server's tools changed show up here
    const catalog = await plane.catalog("anthropic");
    // what changes while the session runs (skill listing, deferred names) goes after the cached
    // prefix: here as a text block after the last user turn, never stored in the history
    const volatile = attachmentsText(catalog.attachments);
    const last = messages.at(-1)!;
    const sent: Anthropic.MessageParam[] =
      volatile === ""
        ? messages
        : [
            ...messages.slice(0, -1),
            {
              role: "user",
              content: [
                ...(typeof last.content === "string"
                  ? [{ type: "text" as const, text: last.content }]
                  : last.content),
                { type: "text" as const, text: volatile },
              ],
            },
          ];
    const response = await client.messages.create(
      {
        model: "claude-sonnet-4-5",
        max_tokens: 1024,
        ...(catalog.system ? { system: catalog.system } : {}),
        messages: sent,
        // Anthropic tools as they are: typed for the SDK, the tool search tool and
        // defer_loading included when tools are deferred
        tools: catalog.tools,
      },
      // the beta header the native deferral form needs, when it is used
      catalog.headers ? { headers: catalog.headers } : {},
    );
    messages.push({ role: "assistant", content: response.content });
    const calls = response.content.filter((b) => b.type === "tool_use");
    if (response.stop_reason !== "tool_use" || calls.length === 0) {
      await plane.close();
      const text = response.content.map((b) => (b.type === "text" ? b.text : "")).join("");
      return { text, messages };
    }
    const results = await host.run(calls.map((c) => ({ id: c.id, tool: c.name, args: c.input })));
    messages.push({
      role: "user",
      content: results.map((r) => ({
        type: "tool_result" as const,
        tool_use_id: r.id!,
        content: resultBlocks(r),
        is_error: r.isError,
      })),
    });
  }
  await plane.close();
  throw new Error("no answer after 10 turns");
}
