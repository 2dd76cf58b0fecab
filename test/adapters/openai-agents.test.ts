import { existsSync } from "node:fs";
import path from "node:path";
import {
  Agent,
  type Model,
  type ModelRequest,
  type ModelResponse,
  run,
  setTraceProcessors,
  setTracingDisabled,
  Usage,
} from "@openai/agents";
import { beforeAll, describe, expect, it } from "vitest";
import { openaiAgentsTools } from "../../src/adapters/openai-agents.js";
import type { Toolplane } from "../../src/assemble/index.js";
import type { ToolResult } from "../../src/execute/index.js";
import { tempPlanes } from "../helpers/planes.js";
import { tempDir } from "../helpers/tmp.js";

beforeAll(() => {
  // no trace export: the tests have no network
  setTracingDisabled(true);
  setTraceProcessors([]);
});

/**
 * A Model per the Agents SDK interface: the first turn calls ticket_status with `args`; once a
 * function_call_result is in the input, it answers with that result's text.
 */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly args: Record<string, unknown>) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const input = typeof request.input === "string" ? [] : request.input;
    const result = input.find((i) => i.type === "function_call_result");
    if (result && result.type === "function_call_result") {
      const output = result.output;
      const text = typeof output === "string" ? output : JSON.stringify(output);
      return {
        usage: new Usage(),
        output: [
          {
            type: "message",
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: `tool said: ${text}` }],
          },
        ],
      };
    }
    return {
      usage: new Usage(),
      output: [
        {
          type: "function_call",
          callId: "call-1",
          name: "ticket_status",
          status: "completed",
          arguments: JSON.stringify(this.args),
        },
      ],
    };
  }

  // biome-ignore lint/correctness/useYield: the adapter tests only use non-streamed runs
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error("streaming is not scripted");
  }
}

const open = tempPlanes();

async function runAgent(plane: Toolplane, args: Record<string, unknown>) {
  const results: ToolResult[] = [];
  const tools = await openaiAgentsTools(plane, { onResult: (r) => results.push(r) });
  const model = new ScriptedModel(args);
  const agent = new Agent({ name: "support", instructions: "Answer ticket questions.", model, tools });
  const out = await run(agent, "what is going on with my ticket?");
  return { out, results, model };
}

describe("OpenAI Agents SDK adapter", () => {
  it("a fake model's function call runs through the host; the final answer quotes the rendered result", async () => {
    const plane = await open();
    const { out, results, model } = await runAgent(plane, { ticket_id: "T-1001", include_history: null });
    const sent = model.requests[0]!.tools.find((t) => t.name === "ticket_status");
    expect(sent).toMatchObject({ type: "function", strict: true });
    expect(JSON.stringify(sent)).toContain("Not for creating or changing tickets");
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ id: "call-1", tool: "ticket_status", isError: false });
    expect(out.finalOutput).toContain("status: in_progress");
  });

  it("a permission rule blocks the call inside the host; the model reads why", async () => {
    const plane = await open([
      'permissions.rules=[{"effect":"deny","param":{"pointer":"/ticket_id","glob":"INC-*"}}]',
    ]);
    const { out, results } = await runAgent(plane, { ticket_id: "INC-7", include_history: null });
    expect(results[0]).toMatchObject({ isError: true, error: { code: "permission_denied" } });
    expect(out.finalOutput).toMatch(/denied/);
    expect(out.finalOutput).not.toContain("Nightly backup");
  });

  it("an ask rule goes to the ask callback given to the adapter", async () => {
    const plane = await open(['permissions.rules=[{"effect":"ask","tool":"ticket_status"}]']);
    const asked: string[] = [];
    const tools = await openaiAgentsTools(plane, {
      ask: (req) => {
        asked.push(req.tool);
        return true;
      },
    });
    const agent = new Agent({
      name: "support",
      model: new ScriptedModel({ ticket_id: "T-1002", include_history: null }),
      tools,
    });
    const out = await run(agent, "T-1002?");
    expect(asked).toEqual(["ticket_status"]);
    expect(out.finalOutput).toContain("status: resolved");
  });

  it("a big result spills; the model gets a preview naming the file", async () => {
    const spillDir = path.join(tempDir("tp-spill-"), "spill");
    const plane = await open(["results.inlineMaxBytes=60", `results.spillDir=${JSON.stringify(spillDir)}`]);
    const { out, results } = await runAgent(plane, { ticket_id: "T-1002", include_history: true });
    expect(results[0]!.truncated).toBe(true);
    expect(results[0]!.spillPath?.startsWith(spillDir)).toBe(true);
    expect(existsSync(results[0]!.spillPath!)).toBe(true);
    expect(out.finalOutput).toContain(results[0]!.spillPath);
  });
});
