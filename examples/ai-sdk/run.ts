import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs } from "ai";
import { Toolplane } from "toolplane";
import { aiSdkAttachments, aiSdkTools } from "toolplane/ai-sdk";

export async function main(options: {
  cwd: string;
  prompt: string;
  baseURL?: string;
  env?: NodeJS.ProcessEnv;
  set?: string[];
}) {
  const { cwd, prompt, baseURL, env, set = [] } = options;
  const plane = await Toolplane.open({ cwd, set, ...(env ? { env } : {}) });
  const openai = createOpenAI({ apiKey: env?.OPENAI_API_KEY ?? "sk-...", ...(baseURL ? { baseURL } : {}) });
  // Every call runs through the toolplane host (validation, permissions, limits, spill). The tool
  // set is live: a tool that tool_search finds is sent, and callable, from the next step. Pass it
  // as it is (a spread copy stops following the plane).
  const tools = await aiSdkTools(plane, { ask: async () => false });
  const result = await generateText({
    model: openai("gpt-5"),
    tools,
    // the deferred names and the skill listing, after the conversation (outside the cached prefix)
    messages: [{ role: "user", content: prompt }, ...(await aiSdkAttachments(plane))],
    stopWhen: stepCountIs(6),
  });
  await plane.close();
  return { text: result.text, steps: result.steps.map((s) => s.toolCalls.map((c) => c.toolName)) };
}
