// Hooks through both SDK adapters (each over src/adapters/bridge.ts): the configured ones, and
// in-process ones given with the adapter's options, see the SDK's call id and reach its result.
import { RunContext } from "@openai/agents";
import { afterEach, describe, expect, it } from "vitest";
import { aiSdkTools } from "../../src/adapters/ai-sdk.js";
import { openaiAgentsTools } from "../../src/adapters/openai-agents.js";
import { Toolplane } from "../../src/assemble/index.js";
import type { ToolResult } from "../../src/execute/index.js";
import type { HookInput, InProcessHooks } from "../../src/hooks/index.js";
import { textOf } from "../helpers/host.js";
import { tempProject } from "../helpers/tmp.js";

const planes: Toolplane[] = [];
afterEach(async () => {
  for (const p of planes.splice(0)) await p.close();
});

describe("hooks through the SDK adapters", () => {
  it("run for a call made by the AI SDK's execute and by an Agents SDK FunctionTool", async () => {
    const p = tempProject({ "a.txt": "alpha\n" });
    const configured = [
      {
        matcher: "Read",
        hooks: [{ type: "command", command: 'echo \'{"decision":"block","reason":"configured hook"}\'' }],
      },
    ];
    const plane = await Toolplane.open({
      cwd: p.repo,
      env: p.bareEnv,
      bundledSkills: null,
      set: [`hooks.PostToolUse=${JSON.stringify(configured)}`],
    });
    planes.push(plane);
    const seen: HookInput[] = [];
    const hooks: InProcessHooks = {
      PreToolUse: [
        (input) => {
          seen.push(input);
          return { hookSpecificOutput: { additionalContext: `seen ${input.tool_use_id}` } };
        },
      ],
    };

    const ai = await aiSdkTools(plane, { hooks });
    const fromAi = (await ai.read!.execute!(
      { path: "a.txt" },
      { toolCallId: "ai-1", messages: [] },
    )) as ToolResult;
    expect(textOf(fromAi)).toContain("alpha");
    expect(textOf(fromAi)).toContain("[PreToolUse hook `(anonymous function)` adds: seen ai-1]");
    expect(textOf(fromAi)).toMatch(/\[PostToolUse hook `echo .*` flags this result: configured hook\]/);

    const results: ToolResult[] = [];
    const agents = await openaiAgentsTools(plane, { hooks, onResult: (r) => results.push(r) });
    const read = agents.find((t) => t.name === "read");
    if (read?.type !== "function") throw new Error("no read tool");
    await read.invoke(new RunContext(), JSON.stringify({ path: "a.txt" }), {
      toolCall: { type: "function_call", callId: "agents-1", name: "read", arguments: "{}" },
    });
    expect(textOf(results[0]!)).toContain("[PreToolUse hook `(anonymous function)` adds: seen agents-1]");
    expect(seen.map((s) => s.tool_use_id)).toEqual(["ai-1", "agents-1"]);
  });
});
