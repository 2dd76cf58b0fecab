// toolplane in the Claude Agent SDK: the three lines are marked. `query()` runs the SDK's bundled
// Claude Code with toolplane's tools as an in-process MCP server (named mcp__toolplane__TOOL).
import { query } from "@anthropic-ai/claude-agent-sdk";
import { Toolplane } from "toolplane";
import { claudeAgentSdkServer } from "toolplane/claude-agent-sdk";

export async function main({
  cwd = process.cwd(),
  set = [],
  prompt = "What is the status of ticket T-1001?",
} = {}) {
  const plane = await Toolplane.open({ cwd, set }); // 1: the tool layer for this directory
  const toolplane = await claudeAgentSdkServer(plane); // 2: its tools as the SDK's MCP server
  try {
    let answer = "";
    const options = { cwd, mcpServers: { toolplane }, allowedTools: ["mcp__toolplane__*"] }; // 3: given to Claude Code
    for await (const m of query({ prompt, options }))
      if (m.type === "result" && m.subtype === "success") answer = m.result;
    return answer;
  } finally {
    await plane.close();
  }
}

/** The server alone, for a harness (or a test) that drives it with its own MCP client. */
export async function server({ cwd = process.cwd(), set = [] } = {}) {
  const plane = await Toolplane.open({ cwd, set });
  return { plane, server: await claudeAgentSdkServer(plane) };
}
