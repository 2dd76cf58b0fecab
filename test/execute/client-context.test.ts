// What a tool asks of whoever runs it (ToolContext.progress, logMessage, elicit, sample), answered
// in process through plane.host({onProgress, onLog, onElicit, onSample}) and per run.
import { afterEach, describe, expect, it } from "vitest";
import {
  type AnyTool,
  defineTool,
  GLOBAL_LAYER,
  type LogMessage,
  type ProgressUpdate,
  Toolplane,
} from "../../src/index.js";
import { tempProject } from "../helpers/tmp.js";

const planes: Toolplane[] = [];
afterEach(async () => {
  for (const p of planes.splice(0)) await p.close();
});

const asker = defineTool({
  name: "asker",
  description: "asks the user and the client's model",
  parameters: { type: "object", properties: {} },
  output: { schema: { type: "string" }, render: (v: string) => v },
  execute: async (_args, ctx) => {
    ctx.progress?.({ progress: 1, total: 3 });
    ctx.progress?.({ progress: 1, total: 3 }); // not an increase: dropped
    ctx.logMessage?.({ level: "warning", data: { step: "asking" }, logger: "asker" });
    ctx.progress?.({ progress: 2, total: 3, message: "asked" });
    const answer = await ctx.elicit!({
      message: "Which colour?",
      requestedSchema: {
        type: "object",
        properties: { colour: { type: "string", enum: ["red", "blue"], default: "red" } },
        required: ["colour"],
      },
    });
    const model = await ctx.sample!({
      messages: [{ role: "user", content: { type: "text", text: `name a ${answer.content?.colour} fruit` } }],
      maxTokens: 10,
    });
    return `${answer.action} ${answer.content?.colour} ${model.content.type === "text" ? model.content.text : ""}`;
  },
});

async function plane(tools: AnyTool[]) {
  const p = tempProject();
  const plane = await Toolplane.open({ cwd: p.repo, env: p.bareEnv });
  planes.push(plane);
  plane.tools.register(GLOBAL_LAYER, { name: "test", enumerate: () => tools });
  return plane;
}

describe("ToolContext: progress, log messages, elicitation and sampling in process", () => {
  it("reaches the host's handlers; an answer that does not fit the form is refused", async () => {
    const p = await plane([asker]);
    const progress: ProgressUpdate[] = [];
    const logs: LogMessage[] = [];
    let colour = "blue";
    const host = p.host({
      onProgress: (u) => progress.push(u),
      onLog: (m) => logs.push(m),
      onElicit: async (request) => {
        expect(request.message).toBe("Which colour?");
        return { action: "accept", content: { colour } };
      },
      onSample: async (request) => {
        const first = request.messages[0]!.content;
        return {
          role: "assistant",
          model: "fake",
          content: { type: "text", text: first.type === "text" ? `[${first.text}]` : "" },
        };
      },
    });
    const ok = await host.call({ tool: "asker", args: {} });
    expect(ok.isError).toBe(false);
    expect(ok.content).toEqual([{ type: "text", text: "accept blue [name a blue fruit]" }]);
    expect(progress).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3, message: "asked" },
    ]);
    expect(logs).toEqual([{ level: "warning", data: { step: "asking" }, logger: "asker" }]);

    colour = "green"; // not one of the form's choices
    const bad = await host.call({ tool: "asker", args: {} });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]).toMatchObject({ text: expect.stringMatching(/does not fit the form/) });
  });

  it("a run's handlers win over the host's; without any, elicit says nobody can be asked", async () => {
    const p = await plane([asker]);
    const host = p.host({ onElicit: async () => ({ action: "decline" }) });
    const none = await host.call({ tool: "asker", args: {} });
    // the host's onElicit declined; then sampling has no handler at all
    expect(none.isError).toBe(true);
    expect(none.content[0]).toMatchObject({ text: expect.stringMatching(/there is none here/) });

    const perRun = await host.call(
      { tool: "asker", args: {} },
      {
        client: {
          onElicit: async () => ({ action: "accept", content: { colour: "red" } }),
          onSample: async () => ({
            role: "assistant",
            model: "m",
            content: { type: "text", text: "cherry" },
          }),
        },
      },
    );
    expect(perRun.content).toEqual([{ type: "text", text: "accept red cherry" }]);

    const bare = await p.host().call({ tool: "asker", args: {} });
    expect(bare.isError).toBe(true);
    expect(bare.content[0]).toMatchObject({ text: expect.stringMatching(/nobody can be asked here/) });
  });
});
