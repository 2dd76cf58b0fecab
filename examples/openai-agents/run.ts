import { Agent, OpenAIResponsesModel, run, setTracingDisabled } from "@openai/agents";
import OpenAI from "openai";
import { Toolplane } from "toolplane";
import { openaiAgentsTools } from "toolplane/openai-agents";

export async function main(options: {
  cwd: string;
  prompt: string;
  baseURL?: string;
  env?: NodeJS.ProcessEnv;
  set?: string[];
}) {
  const { cwd, prompt, baseURL, env, set = [] } = options;
  setTracingDisabled(true);
  const plane = await Toolplane.open({ cwd, set, ...(env ? { env } : {}) });
  const client = new OpenAI({ apiKey: env?.OPENAI_API_KEY ?? "sk-...", ...(baseURL ? { baseURL } : {}) });
  // The default rendering is openai-responses: deferred tools go natively, behind OpenAI's hosted
  // tool search, so the agent needs no tool_search of ours and no runner option.
  const agent = new Agent({
    name: "assistant",
    instructions: "Answer with the tools you have.",
    model: new OpenAIResponsesModel(client, "gpt-5"),
    tools: await openaiAgentsTools(plane, { ask: async () => false }),
  });
  const result = await run(agent, prompt);
  await plane.close();
  return { text: String(result.finalOutput) };
}
