import { existsSync } from "node:fs";
import path from "node:path";
import { generateText, stepCountIs } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { aiSdkTools } from "../../src/adapters/ai-sdk.js";
import { Toolplane } from "../../src/assemble/index.js";
import { scriptedModel } from "../helpers/scripted-model.js";
import { tempDir, tempProject } from "../helpers/tmp.js";

/** First step: one ticket_status call with `input`; second step: text quoting the tool result. */
function ticketModel(input: Record<string, unknown>) {
  return scriptedModel((out, step) =>
    step === 0
      ? { tool: "ticket_status", input, id: "call-1" }
      : { text: `tool said: ${JSON.stringify(out)}` },
  );
}

const planes: Toolplane[] = [];
async function open(set: string[] = []) {
  const p = tempProject();
  const plane = await Toolplane.open({ cwd: p.repo, env: p.env, set, bundledSkills: null });
  planes.push(plane);
  return { plane };
}
afterEach(async () => {
  for (const plane of planes.splice(0)) await plane.close();
});

describe("AI SDK adapter", () => {
  it("a mock model's tool call runs through the host, and the model reads the rendered result", async () => {
    const { plane } = await open();
    const tools = await aiSdkTools(plane);
    expect(Object.keys(tools)).toContain("ticket_status");
    const model = ticketModel({ ticket_id: "T-1001", include_history: null });
    const result = await generateText({
      model,
      tools,
      prompt: "status of T-1001?",
      stopWhen: stepCountIs(3),
    });
    // the request carried toolplane's rendering: description and strict schema
    const sent = model.doGenerateCalls[0]!.tools!.find((t) => t.name === "ticket_status");
    expect(sent).toMatchObject({ type: "function" });
    expect(JSON.stringify(sent)).toContain("Not for creating or changing tickets");
    expect(result.steps).toHaveLength(2);
    const toolResult = result.steps[0]!.toolResults[0]!;
    // canonical value for the app, rendered text for the model; the strict-mode null was dropped
    expect(toolResult.output).toMatchObject({ tool: "ticket_status", isError: false, id: "call-1" });
    expect(result.text).toContain("status: in_progress");
    expect(result.text).toContain('"type":"text"');
  });

  it("a permission rule blocks the call inside the host; the model gets the reason as error text", async () => {
    const { plane } = await open([
      'permissions.rules=[{"effect":"deny","param":{"pointer":"/ticket_id","glob":"INC-*"}}]',
    ]);
    const tools = await aiSdkTools(plane);
    const result = await generateText({
      model: ticketModel({ ticket_id: "INC-7", include_history: false }),
      tools,
      prompt: "status of INC-7?",
      stopWhen: stepCountIs(3),
    });
    expect(result.steps[0]!.toolResults[0]!.output).toMatchObject({
      isError: true,
      error: { code: "permission_denied" },
    });
    expect(result.text).toContain('"type":"error-text"');
    expect(result.text).not.toContain("Nightly backup");
  });

  it("a tool denied outright is not in the ToolSet at all", async () => {
    const { plane } = await open(['permissions.rules=[{"effect":"deny","tool":"ticket_status"}]']);
    expect(Object.keys(await aiSdkTools(plane))).not.toContain("ticket_status");
  });

  it("a big result spills to a file and the model gets the preview with its location", async () => {
    const spillDir = path.join(tempDir("tp-spill-"), "spill");
    const { plane: small } = await open([
      "results.inlineMaxBytes=60",
      `results.spillDir=${JSON.stringify(spillDir)}`,
    ]);
    const result = await generateText({
      model: ticketModel({ ticket_id: "T-1002", include_history: true }),
      tools: await aiSdkTools(small),
      prompt: "history of T-1002",
      stopWhen: stepCountIs(3),
    });
    const out = result.steps[0]!.toolResults[0]!.output as { spillPath?: string; truncated: boolean };
    expect(out.truncated).toBe(true);
    expect(out.spillPath?.startsWith(spillDir)).toBe(true);
    expect(existsSync(out.spillPath!)).toBe(true);
    expect(result.text).toContain(JSON.stringify(out.spillPath).slice(1, -1));
  });
});
