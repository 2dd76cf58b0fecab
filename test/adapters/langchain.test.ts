// The LangChain adapter as a user runs it: `createAgent` with toolplane's middleware, and
// `bindTools` without an agent, on LangChain's own scripted fake chat model (`fakeModel`). The
// tools the model was given are recorded by a middleware of the test's own and converted with
// LangChain's `convertToOpenAITool`, the conversion its OpenAI integration sends.
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import {
  AIMessage,
  type BaseMessage,
  createAgent,
  createMiddleware,
  fakeModel,
  HumanMessage,
  type StructuredTool,
  ToolMessage,
} from "langchain";
import { describe, expect, it } from "vitest";
import { langchainTools, toolplaneMiddleware } from "../../src/adapters/langchain.js";
import type { Toolplane } from "../../src/assemble/index.js";
import type { ToolResult } from "../../src/execute/index.js";
import { tempPlanes } from "../helpers/planes.js";

const DEFER_TICKETS = 'defer.tools={"ticket_status":"always"}';
const STATUS = { ticket_id: "T-1001", include_history: null };
const open = tempPlanes();

/** The last tool message's text, as the scripted model's final answer. */
const echoLastTool = (messages: BaseMessage[]) =>
  new AIMessage(String(messages.filter((m) => ToolMessage.isInstance(m)).at(-1)?.content ?? "none"));

/** Runs an agent over a script of tool calls, then an answer; returns the tools each model call was given. */
async function runAgent(plane: Toolplane, calls: Array<{ name: string; args: object }>, options = {}) {
  const model = fakeModel();
  for (const [i, c] of calls.entries()) model.respondWithTools([{ ...c, id: `call-${i + 1}` }]);
  model.respond(echoLastTool);
  const sent: string[][] = [];
  const wire: unknown[][] = [];
  const results: ToolResult[] = [];
  const recorder = createMiddleware({
    name: "recorder",
    wrapModelCall: (request, handler) => {
      const tools = (request.tools ?? []) as StructuredTool[];
      sent.push(tools.map((t) => t.name));
      wire.push(tools.map((t) => convertToOpenAITool(t)));
      return handler(request);
    },
  });
  const agent = createAgent({
    model,
    tools: [],
    middleware: [toolplaneMiddleware(plane, { onResult: (r) => results.push(r), ...options }), recorder],
  });
  const state = await agent.invoke({ messages: [new HumanMessage("status of T-1001?")] });
  const toolMessages = state.messages.filter((m) => ToolMessage.isInstance(m)) as ToolMessage[];
  return { answer: String(state.messages.at(-1)?.content), sent, wire, results, toolMessages };
}

describe("LangChain createAgent with toolplaneMiddleware", () => {
  it("deferral on: a call before the search is told to search; tool_search loads; the next call runs it", async () => {
    const plane = await open([DEFER_TICKETS]);
    const run = await runAgent(plane, [
      { name: "ticket_status", args: STATUS },
      { name: "tool_search", args: { query: "ticket status lookup", pattern: null, limit: null } },
      { name: "ticket_status", args: STATUS },
    ]);
    const [first, second, third, fourth] = run.sent;
    expect(first).toContain("tool_search");
    expect(first).not.toContain("ticket_status");
    expect(run.toolMessages[0]!.content).toMatch(
      /ticket_status is not available here: it is deferred.*tool_search first/,
    );
    expect(run.toolMessages[0]!.status).toBe("error");
    expect(second).toEqual(first);
    // the middleware hands the found tool to the next model call, as the text says
    expect(run.toolMessages[1]!.content).toMatch(
      /^Matching tools, best first \(callable from the next turn\):\n- ticket_status \(/,
    );
    expect(run.toolMessages[1]!.content).toContain("\nLoaded now: ticket_status");
    // the model call after the search: the found tool appended after the ones sent before
    expect(third).toEqual([...first!, "ticket_status"]);
    expect(fourth).toEqual(third);
    // the wire form LangChain's OpenAI conversion sends is toolplane's rendering
    const catalog = await plane.catalog("openai-chat");
    type Wire = { function: { name: string; parameters: unknown } };
    const rendered = (catalog.tools as Wire[]).find((t) => t.function.name === "ticket_status");
    const sentTool = (run.wire[2] as Wire[]).find((t) => t.function.name === "ticket_status");
    expect(sentTool!.function.parameters).toEqual(rendered!.function.parameters);
    expect(run.results.at(-1)).toMatchObject({ tool: "ticket_status", isError: false });
    expect(run.answer).toContain("status: in_progress");
  });

  it("deferral off: the tool is sent from the start, there is no tool_search, and the call runs", async () => {
    const plane = await open([DEFER_TICKETS, "defer.mode=off"]);
    const run = await runAgent(plane, [{ name: "ticket_status", args: STATUS }]);
    expect(run.sent[0]).toContain("ticket_status");
    expect(run.sent[0]).not.toContain("tool_search");
    expect(run.answer).toContain("status: in_progress");
  });

  it("a permission rule denies the call inside the host; the model reads why, the tool never runs", async () => {
    const plane = await open([
      'permissions.rules=[{"effect":"deny","param":{"pointer":"/ticket_id","glob":"INC-*"}}]',
    ]);
    const run = await runAgent(plane, [
      { name: "ticket_status", args: { ticket_id: "INC-7", include_history: null } },
    ]);
    expect(run.results[0]).toMatchObject({ isError: true, error: { code: "permission_denied" } });
    expect(run.toolMessages[0]!.status).toBe("error");
    expect(run.answer).toMatch(/denied/);
    expect(run.answer).not.toContain("status:");
  });

  it("bad arguments reach the host, which says what to fix (LangChain's own check does not answer first)", async () => {
    const plane = await open();
    const run = await runAgent(plane, [{ name: "ticket_status", args: { ticket: "T-1001" } }]);
    expect(run.results[0]).toMatchObject({ isError: true, error: { code: "invalid_arguments" } });
    expect(run.answer).toMatch(/ticket_id/);
    expect(run.answer).not.toContain("did not match expected schema");
  });

  it("an ask rule goes to the ask callback", async () => {
    const plane = await open(['permissions.rules=[{"effect":"ask","tool":"ticket_status"}]']);
    const asked: string[] = [];
    const run = await runAgent(plane, [{ name: "ticket_status", args: STATUS }], {
      ask: (req: { tool: string }) => {
        asked.push(req.tool);
        return true;
      },
    });
    expect(asked).toEqual(["ticket_status"]);
    expect(run.answer).toContain("status: in_progress");
  });
});

describe("langchainTools with bindTools, no agent", () => {
  it("search, then call of the loaded tool, through the array's invoke; the array grows in place", async () => {
    const plane = await open([DEFER_TICKETS]);
    const tools = await langchainTools(plane);
    const model = fakeModel()
      .respondWithTools([
        {
          name: "tool_search",
          args: { query: "ticket status lookup", pattern: null, limit: null },
          id: "s1",
        },
      ])
      .respondWithTools([{ name: "ticket_status", args: STATUS, id: "c1" }])
      .respond(echoLastTool);
    const names: string[][] = [];
    const messages: BaseMessage[] = [new HumanMessage("status of T-1001?")];
    for (let turn = 0; turn < 3; turn++) {
      names.push(tools.map((t) => t.name));
      const ai = (await model.bindTools(tools).invoke(messages)) as AIMessage;
      messages.push(ai);
      if (!ai.tool_calls?.length) break;
      for (const call of ai.tool_calls) messages.push(await tools.invoke(call));
    }
    expect(names[0]).toContain("tool_search");
    expect(names[0]).not.toContain("ticket_status");
    expect(names[1]).toEqual([...names[0]!, "ticket_status"]);
    const last = messages.filter((m) => ToolMessage.isInstance(m)).at(-1) as ToolMessage;
    expect(last.content).toContain("status: in_progress");
    expect((last.artifact as ToolResult).isError).toBe(false);
    // a name no tool has still gets the host's answer, as a ToolMessage
    const unknown = await tools.invoke({ name: "nope", args: {}, id: "u1" });
    expect(unknown.status).toBe("error");
    expect(unknown.content).toMatch(/nope/);
  });
});
