// `defer.nativeSearch: "toolplane"`: the providers' native deferral (deferred tools sent with
// defer_loading) with toolplane's search answering as the client-run search. The request bodies
// are the ones the provider SDKs' own request code writes: `@ai-sdk/anthropic` (a custom
// tool_search whose result carries tool_reference blocks) and the Agents SDK's Responses model
// against a loopback server (OpenAI's tool_search with client execution, search, call, answer).
import { createAnthropic } from "@ai-sdk/anthropic";
import { Agent, OpenAIProvider, run, setTraceProcessors, setTracingDisabled } from "@openai/agents";
import { generateText, stepCountIs } from "ai";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { aiSdkTools } from "../../src/adapters/ai-sdk.js";
import { openaiAgentsTools } from "../../src/adapters/openai-agents.js";
import { TOOL_SEARCH_DESCRIPTION, TOOL_SEARCH_NATIVE_DESCRIPTION } from "../../src/defer/tool-search.js";
import type { ToolResult } from "../../src/execute/index.js";
import { tempPlanes } from "../helpers/planes.js";
import { recordingFetch, responsesServer } from "../helpers/provider-fakes.js";
import { anthropicMessage, functionCall, outputMessage } from "../helpers/wire-model.js";

beforeAll(() => {
  setTracingDisabled(true);
  setTraceProcessors([]);
});

const TOOLPLANE_SEARCH = ['defer.tools={"ticket_status":"always"}', "defer.nativeSearch=toolplane"];
const open = tempPlanes();
const closing: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

const textOf = (r: ToolResult) => r.content.map((b) => (b.type === "text" ? b.text : "")).join("");

describe("defer.nativeSearch=toolplane", () => {
  it("the catalog keeps defer_loading and sends toolplane's search in the provider's client form; prefixHash is the provider search's", async () => {
    const plane = await open(TOOLPLANE_SEARCH);
    const anthropic = await plane.catalog("anthropic");
    expect(anthropic.report.deferral?.form).toBe("native");
    const search = (anthropic.tools as Array<Record<string, unknown>>).find((t) => t.name === "tool_search");
    expect(search).toMatchObject({
      input_schema: { type: "object", properties: { query: {}, pattern: {} } },
    });
    expect(search).not.toHaveProperty("type");
    const responses = await plane.catalog("openai-responses");
    expect(responses.tools).toContainEqual(
      expect.objectContaining({ type: "tool_search", execution: "client", parameters: expect.any(Object) }),
    );
    // the search tool sits outside prefixHash, as the provider's does: switching leaves the hash
    await plane.set("defer.nativeSearch", "provider");
    expect((await plane.catalog("anthropic")).prefixHash).toBe(anthropic.prefixHash);
  });

  it("Anthropic through @ai-sdk/anthropic: tool_search runs in the host, its result loads the tool by tool_reference, the call runs", async () => {
    const plane = await open(TOOLPLANE_SEARCH);
    const tools = await aiSdkTools(plane, { provider: "anthropic" });
    const { bodies, fetch } = recordingFetch([
      anthropicMessage(
        [{ type: "tool_use", id: "toolu_1", name: "tool_search", input: { query: "ticket status lookup" } }],
        "tool_use",
      ),
      anthropicMessage(
        [{ type: "tool_use", id: "toolu_2", name: "ticket_status", input: { ticket_id: "T-1001" } }],
        "tool_use",
      ),
      anthropicMessage([{ type: "text", text: "answered" }], "end_turn"),
    ]);
    const model = createAnthropic({ apiKey: "test", baseURL: "http://127.0.0.1:9/v1", fetch })("claude-test");
    const result = await generateText({
      model,
      tools,
      prompt: "status of T-1001?",
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe("answered");
    const sent = bodies[0]!.tools as Array<Record<string, unknown>>;
    expect(sent.find((t) => t.name === "tool_search")).toMatchObject({
      input_schema: { type: "object" },
      description: TOOL_SEARCH_NATIVE_DESCRIPTION,
    });
    expect(sent.find((t) => t.name === "ticket_status")).toMatchObject({ defer_loading: true });
    expect(sent.some((t) => String(t.type ?? "").startsWith("tool_search_tool_"))).toBe(false);
    // the search's tool_result carries the reference that loads the deferred tool
    const results = JSON.stringify(bodies[1]!.messages);
    expect(results).toContain('{"type":"tool_reference","tool_name":"ticket_status"}');
    // ... and its text says what is true here: the provider loaded them, callable at once
    expect(results).toContain("best first (loaded: call them now):\\n- ticket_status (");
    expect(results).not.toContain("next turn");
    expect(results).not.toContain("Loaded now");
    expect(JSON.stringify(bodies[2]!.messages)).toContain("status: in_progress");
    // the provider loaded the tool: the search moved nothing, so every request sent the same tools
    expect(bodies[1]!.tools).toEqual(bodies[0]!.tools);
    expect(bodies[2]!.tools).toEqual(bodies[0]!.tools);
  });

  it("OpenAI Responses through the Agents SDK: tool_search with client execution, search, call, answer in one run", async () => {
    const srv = await responsesServer([
      [
        {
          type: "tool_search_call",
          id: "ts_1",
          call_id: "call_search",
          execution: "client",
          status: "completed",
          arguments: { query: "ticket status lookup" },
        },
      ],
      [functionCall("call_1", "ticket_status", { ticket_id: "T-1001", include_history: null })],
      [outputMessage("answered")],
    ]);
    closing.push(() => srv.server.close());
    const plane = await open(TOOLPLANE_SEARCH);
    const results: ToolResult[] = [];
    const tools = await openaiAgentsTools(plane, { onResult: (r) => results.push(r) });
    const provider = new OpenAIProvider({ apiKey: "test", baseURL: srv.baseURL, useResponses: true });
    const agent = new Agent({
      name: "native",
      instructions: "help",
      model: await provider.getModel("gpt-test"),
      tools,
    });
    const out = await run(agent, "status of T-1001?");
    expect(out.finalOutput).toBe("answered");
    const sent = srv.bodies[0]!.tools as Array<Record<string, unknown>>;
    expect(sent).toContainEqual(
      expect.objectContaining({
        type: "tool_search",
        execution: "client",
        parameters: expect.objectContaining({ type: "object" }),
      }),
    );
    expect(sent.find((t) => t.name === "ticket_status")).toMatchObject({
      type: "function",
      defer_loading: true,
    });
    // toolplane's search ran in the host and its hit went back as the client's tool_search_output
    expect(results[0]).toMatchObject({ tool: "tool_search", isError: false });
    expect(textOf(results[0]!)).toMatch(
      /^Matching tools, best first \(loaded: call them now\):\n- ticket_status \(/,
    );
    expect(textOf(results[0]!)).not.toMatch(/next turn|Loaded now/);
    const output = (srv.bodies[1]!.input as Array<Record<string, unknown>>).find(
      (i) => i.type === "tool_search_output",
    );
    expect(output).toMatchObject({ call_id: "call_search", execution: "client" });
    expect((output!.tools as Array<{ name: string }>).map((t) => t.name)).toContain("ticket_status");
    expect(results[1]).toMatchObject({ tool: "ticket_status", isError: false });
    expect(JSON.stringify(srv.bodies[2]!.input)).toContain("status: in_progress");
  });

  it("one plane, two forms: tool_search answers each provider's catalog as that form loads", async () => {
    const plane = await open(TOOLPLANE_SEARCH);
    const anthropic = await plane.catalog("anthropic");
    expect(anthropic.report.deferral?.form).toBe("native");
    const gemini = await plane.catalog("gemini");
    expect(gemini.report.deferral?.form).not.toBe("native");
    expect(gemini.deferred).toContain("ticket_status");
    const described = (c: { tools: unknown[] }) =>
      (c.tools as Array<{ name?: string; description?: string }>).find((t) => t.name === "tool_search")
        ?.description;
    expect(described(anthropic)).toBe(TOOL_SEARCH_NATIVE_DESCRIPTION);
    expect(described(gemini)).toBe(TOOL_SEARCH_DESCRIPTION);
    const search = { query: "ticket status lookup" };
    // anthropic's: the provider loads what the result names; toolplane ranks and loads nothing
    const native = await plane.call("tool_search", search, { provider: "anthropic" });
    expect(textOf(native)).toMatch(
      /^Matching tools, best first \(loaded: call them now\):\n- ticket_status \(/,
    );
    expect(plane.deferral.session.loaded).toEqual([]);
    // gemini's: toolplane loads them; the next catalog lists them, so they are callable from the next turn
    const own = await plane.call("tool_search", search, { provider: "gemini" });
    expect(textOf(own)).toMatch(
      /^Matching tools, best first \(callable from the next turn\):\n- ticket_status \(/,
    );
    expect(textOf(own)).toMatch(/\nLoaded now: ticket_status\.$/);
    expect(plane.deferral.session.loaded).toEqual(["ticket_status"]);
    expect((await plane.catalog("gemini")).deferred).not.toContain("ticket_status");
  });
});
