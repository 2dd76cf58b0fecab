// toolplane in a LangChain agent: the three lines are marked. Run with any LangChain chat model
// (e.g. `new ChatAnthropic({ model: "claude-sonnet-4-5" })`); the test passes LangChain's fakeModel.
import { createAgent, HumanMessage } from "langchain";
import { Toolplane } from "toolplane";
import { toolplaneMiddleware } from "toolplane/langchain";

export async function main({ cwd = process.cwd(), model, set = [], ask } = {}) {
  const plane = await Toolplane.open({ cwd, set }); // 1: the tool layer for this directory
  const middleware = [toolplaneMiddleware(plane, { ask })]; // 2: its tools on every model call, calls through its host
  const agent = createAgent({ model, tools: [], middleware }); // 3: the agent
  try {
    const state = await agent.invoke({
      messages: [new HumanMessage("What is the status of ticket T-1001?")],
    });
    return String(state.messages.at(-1).content);
  } finally {
    await plane.close();
  }
}
