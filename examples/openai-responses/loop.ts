import OpenAI from "openai";
import { attachmentsText, Toolplane, type ToolResult } from "toolplane";

/** A tool result as the text of a `function_call_output`. */
function outputText(result: ToolResult): string {
  return result.content.map((b) => (b.type === "text" ? b.text : `[${b.type}: ${b.mimeType}]`)).join("\n");
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
  const client = new OpenAI({ apiKey: env?.OPENAI_API_KEY ?? "sk-...", ...(baseURL ? { baseURL } : {}) });
  // The catalog's schemas are strict: every optional parameter is required and nullable, so the
  // model sends null for "left out". The host takes the call as the model sent it (JSON text,
  // nulls) and restores it for the tool: no step here.
  const host = plane.host({ provider: "openai-responses", ask: async () => false });
  // the conversation is kept by the API (previous_response_id), hosted tool search's items too
  let input: OpenAI.Responses.ResponseInput = [{ role: "user", content: prompt }];
  let previous: string | undefined;

  for (let turn = 0; turn < 10; turn++) {
    const catalog = await plane.catalog("openai-responses");
    const volatile = attachmentsText(catalog.attachments);
    const response = await client.responses.create({
      model: "gpt-5",
      ...(catalog.system ? { instructions: catalog.system } : {}),
      // after the cached prefix: the skill listing and deferred names of this turn
      input: volatile === "" ? input : [...input, { role: "user", content: volatile }],
      tools: catalog.tools,
      ...(previous ? { previous_response_id: previous } : {}),
    });
    previous = response.id;
    const calls = response.output.filter((item) => item.type === "function_call");
    if (calls.length === 0) {
      await plane.close();
      return { text: response.output_text };
    }
    const results = await host.run(calls.map((c) => ({ id: c.call_id, tool: c.name, args: c.arguments })));
    input = results.map((r) => ({
      type: "function_call_output" as const,
      call_id: r.id!,
      output: outputText(r),
    }));
  }
  await plane.close();
  throw new Error("no answer after 10 turns");
}
