// Deferral through the OpenAI Agents SDK adapter, as a user runs it. The names form runs on an
// Agents `Model` of the test's own; the native form runs on the SDK's own Responses model against
// a loopback server, so the request body checked is the one OpenAI would receive.
import {
  Agent,
  type Model,
  type ModelRequest,
  type ModelResponse,
  OpenAIProvider,
  run,
  setTraceProcessors,
  setTracingDisabled,
  Usage,
} from "@openai/agents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deferredToolErrors, openaiAgentsTools } from "../../src/adapters/openai-agents.js";
import { tempPlanes } from "../helpers/planes.js";
import { responsesServer } from "../helpers/provider-fakes.js";
import { functionCall, outputMessage } from "../helpers/wire-model.js";

beforeAll(() => {
  setTracingDisabled(true);
  setTraceProcessors([]);
});

const DEFER_TICKETS = 'defer.tools={"ticket_status":"always"}';
const open = tempPlanes();

type Step = { call: string; args: object } | { text: string };

/** An Agents Model that plays `script` one turn at a time and keeps each request and tool output. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  readonly outputs: string[] = [];
  constructor(private readonly script: Step[]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const input = typeof request.input === "string" ? [] : request.input;
    const last = input.at(-1);
    if (last?.type === "function_call_result") {
      const o = last.output;
      this.outputs.push(typeof o === "string" ? o : JSON.stringify(o));
    }
    const step = this.script[this.requests.length - 1] ?? { text: "done" };
    const output =
      "text" in step
        ? [
            {
              type: "message" as const,
              role: "assistant" as const,
              status: "completed" as const,
              content: [{ type: "output_text" as const, text: step.text }],
            },
          ]
        : [
            {
              type: "function_call" as const,
              callId: `call-${this.requests.length}`,
              name: step.call,
              status: "completed" as const,
              arguments: JSON.stringify(step.args),
            },
          ];
    return { usage: new Usage(), output };
  }

  // biome-ignore lint/correctness/useYield: the tests only use non-streamed runs
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error("streaming is not scripted");
  }
}

const toolNames = (request: ModelRequest) =>
  request.tools.map((t) => (t as { name?: string }).name).filter((n): n is string => typeof n === "string");

describe("OpenAI Agents adapter with deferral on (names form)", () => {
  it("tool_search loads the tool; the next turn sends and runs it; an unloaded call is told to search", async () => {
    const plane = await open([DEFER_TICKETS]);
    const tools = await openaiAgentsTools(plane, { provider: "openai-chat" });
    const model = new ScriptedModel([
      { call: "ticket_status", args: { ticket_id: "T-1001", include_history: null } },
      { call: "tool_search", args: { query: "ticket status lookup", pattern: null, limit: null } },
      { call: "ticket_status", args: { ticket_id: "T-1001", include_history: null } },
      { text: "answered" },
    ]);
    const agent = new Agent({ name: "deferral", instructions: "help", model, tools });
    const result = await run(agent, "status of T-1001?", {
      toolNotFoundBehavior: "return_error_to_model",
      toolErrorFormatter: deferredToolErrors(plane),
    });
    expect(result.finalOutput).toBe("answered");
    const [first, second, third] = model.requests;
    expect(toolNames(first!)).toContain("tool_search");
    expect(toolNames(first!)).not.toContain("ticket_status");
    // the unloaded call was answered, not fatal, and the answer says to search
    expect(model.outputs[0]).toMatch(
      /ticket_status is not available here: it is deferred.*tool_search first/,
    );
    expect(toolNames(second!)).not.toContain("ticket_status");
    expect(model.outputs[1]).toContain("Loaded now: ticket_status");
    // the turn after the search: the loaded tool is sent, after the ones sent before
    const before = toolNames(second!);
    expect(toolNames(third!)).toEqual([...before, "ticket_status"]);
    expect(model.outputs[2]).toContain("status: in_progress");
  });

  it("with defer.mode=off the tools are all plain function tools and tool_search is absent", async () => {
    const plane = await open([DEFER_TICKETS, "defer.mode=off"]);
    const names = (await openaiAgentsTools(plane)).map((t) => t.name);
    expect(names).toContain("ticket_status");
    expect(names).not.toContain("tool_search");
  });
});

describe("OpenAI Agents adapter, native form on the SDK's own Responses model", () => {
  let srv: Awaited<ReturnType<typeof responsesServer>>;
  afterAll(() => srv?.server.close());

  it("the request has the hosted tool_search and defer_loading tools; the found tool runs", async () => {
    srv = await responsesServer([
      [
        // OpenAI's server-side search found and loaded the tool, then the model called it
        {
          type: "tool_search_call",
          id: "ts_1",
          status: "completed",
          execution: "server",
          arguments: { query: "ticket status" },
        },
        {
          type: "tool_search_output",
          id: "tso_1",
          status: "completed",
          execution: "server",
          tools: [
            {
              type: "function",
              name: "ticket_status",
              description: "Look up a ticket",
              parameters: { type: "object", properties: {} },
              defer_loading: true,
            },
          ],
        },
        functionCall("call_1", "ticket_status", { ticket_id: "T-1001", include_history: null }),
      ],
      [outputMessage("answered")],
    ]);
    const plane = await open([DEFER_TICKETS]);
    const tools = await openaiAgentsTools(plane);
    const provider = new OpenAIProvider({ apiKey: "test", baseURL: srv.baseURL, useResponses: true });
    const model = await provider.getModel("gpt-test");
    const agent = new Agent({ name: "native", instructions: "help", model, tools });
    const result = await run(agent, "status of T-1001?");
    expect(result.finalOutput).toBe("answered");
    const sent = srv.bodies[0]!.tools as Array<Record<string, unknown>>;
    // OpenAI's documented shape: {type: "tool_search"} and function tools with defer_loading
    expect(sent.filter((t) => t.type === "tool_search")).toHaveLength(1);
    expect(sent.find((t) => t.name === "ticket_status")).toMatchObject({
      type: "function",
      defer_loading: true,
      parameters: { type: "object" },
    });
    expect(
      sent.filter((t) => t.type === "function" && t.name !== "ticket_status").every((t) => !t.defer_loading),
    ).toBe(true);
    expect(sent.map((t) => t.name)).not.toContain("tool_search");
    expect(JSON.stringify(srv.bodies[1]!.input)).toContain("status: in_progress");
  });
});
