import { readFileSync } from "node:fs";
import path from "node:path";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { aiSdkTools } from "../../src/adapters/ai-sdk.js";
import { Toolplane } from "../../src/assemble/index.js";
import { tempProject } from "../helpers/tmp.js";

type CallOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A model that makes the given calls, one per step, then stops. */
function scripted(calls: Array<{ tool: string; input: Record<string, unknown> }>) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async (_options: CallOptions): Promise<GenerateResult> => {
      const next = calls[step++];
      if (!next)
        return {
          content: [{ type: "text", text: "done" }],
          finishReason: { unified: "stop", raw: "stop" },
          usage,
          warnings: [],
        };
      return {
        content: [
          {
            type: "tool-call",
            toolCallId: `c${step}`,
            toolName: next.tool,
            input: JSON.stringify(next.input),
          },
        ],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      };
    },
  });
}

const planes: Toolplane[] = [];
afterEach(async () => {
  for (const p of planes.splice(0)) await p.close();
});

describe("the coding tools through the AI SDK adapter", () => {
  it("read, then edit (strict-mode nulls and all), then bash, in one session", async () => {
    const p = tempProject({ "a.txt": "hello world\n" });
    const rules = JSON.stringify([
      { effect: "allow", action: "write", path: "a.txt" },
      { effect: "allow", action: "command", pattern: "cat *" },
    ]);
    const plane = await Toolplane.open({
      cwd: p.repo,
      env: p.env,
      set: [`permissions.rules=${rules}`, "tools.sandbox=off"],
      bundledSkills: null,
    });
    planes.push(plane);
    const model = scripted([
      { tool: "edit", input: { path: "a.txt", oldString: "world", newString: "there", replaceAll: null } },
      { tool: "read", input: { path: "a.txt", offset: null, limit: null } },
      { tool: "edit", input: { path: "a.txt", oldString: "world", newString: "there", replaceAll: null } },
      { tool: "bash", input: { command: "cat a.txt", description: null } },
      { tool: "bash", input: { command: "rm a.txt", description: null } },
    ]);
    const result = await generateText({
      model,
      tools: await aiSdkTools(plane),
      prompt: "fix it",
      stopWhen: stepCountIs(8),
    });
    const outputs = result.steps.flatMap((s) =>
      s.toolResults.map(
        (r) =>
          r.output as { isError: boolean; content: Array<{ text: string }>; error?: { message: string } },
      ),
    );
    expect(outputs[0]!.error?.message).toContain("has not been read in this session");
    expect(outputs[2]!.isError).toBe(false);
    expect(outputs[3]!.content[0]!.text).toContain("hello there");
    // rm is not allowed by any rule, and nothing approves asks here
    expect(outputs[4]!.error?.message).toContain('"rm a.txt"');
    expect(readFileSync(path.join(p.repo, "a.txt"), "utf8")).toBe("hello there\n");
  });
});
