// Deferral through the AI SDK adapter, as a user runs it: one generateText run in which the
// model searches, then calls the tool it found. The names form runs on the SDK's own mock model;
// the native forms run through the provider packages with a fetch of the test's own, so the
// request body checked is the one the provider would receive.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs } from "ai";
import { describe, expect, it } from "vitest";
import { aiSdkAttachments, aiSdkTools, aiSdkToolsSettled } from "../../src/adapters/ai-sdk.js";
import { tempPlanes } from "../helpers/planes.js";
import { recordingFetch } from "../helpers/provider-fakes.js";
import { scriptedModel } from "../helpers/scripted-model.js";

// the provider packages warn about the test's unknown model names
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const DEFER_TICKETS = 'defer.tools={"ticket_status":"always"}';

const open = tempPlanes();

const sentNames = (tools: Array<{ name: string }> | undefined) => (tools ?? []).map((t) => t.name);

describe("AI SDK adapter with deferral on (names form)", () => {
  it.each(["system", "attachments"])(
    "a call before the search is told to search; tool_search loads the tool; the next step calls it (catalog.volatile=%s)",
    async (volatile) => {
      const plane = await open([DEFER_TICKETS, `catalog.volatile=${volatile}`]);
      const tools = await aiSdkTools(plane);
      expect(Object.keys(tools)).toContain("tool_search");
      expect(Object.keys(tools)).not.toContain("ticket_status");
      const attached = JSON.stringify(await aiSdkAttachments(plane));
      if (volatile === "system") {
        // the SDK owns the system text: the names-only listing rides in tool_search's description
        expect(tools.tool_search!.description).toContain("ticket_status");
        expect(attached).not.toContain("ticket_status");
      } else {
        // it is the attachment message the harness sends after its cached prefix
        expect(tools.tool_search!.description).not.toContain("ticket_status");
        expect(attached).toContain("ticket_status");
      }
      const seen: Array<{ type: string; value: unknown } | undefined> = [];
      const model = scriptedModel((out, step) => {
        seen.push(out);
        if (step === 0)
          return { tool: "ticket_status", input: { ticket_id: "T-1001", include_history: null } };
        if (step === 1) return { tool: "tool_search", input: { query: "ticket status lookup" } };
        if (step === 2)
          return { tool: "ticket_status", input: { ticket_id: "T-1001", include_history: null } };
        return { text: `tool said: ${JSON.stringify(out)}` };
      });
      const result = await generateText({
        model,
        tools,
        prompt: "status of T-1001?",
        stopWhen: stepCountIs(6),
      });
      // step 0: the unloaded tool reached the host, whose answer says to search (the run went on)
      expect(seen[1]).toMatchObject({ type: "error-text" });
      expect(String(seen[1]!.value)).toMatch(/deferred.*call tool_search first/);
      // step 1: the search found and loaded it
      expect(String(seen[2]!.value)).toContain("ticket_status");
      expect(String(seen[2]!.value)).toContain("Loaded now: ticket_status");
      // step 2 ran it with valid arguments
      expect(seen[3]).toMatchObject({ type: "text" });
      expect(result.text).toContain("status: in_progress");
      const calls = model.doGenerateCalls;
      expect(sentNames(calls[0]!.tools)).not.toContain("ticket_status");
      expect(sentNames(calls[1]!.tools)).not.toContain("ticket_status");
      // loaded tools are appended: the tools sent before keep their order
      const before = sentNames(calls[1]!.tools);
      const after = sentNames(calls[2]!.tools);
      expect(after.slice(0, before.length)).toEqual(before);
      expect(after.slice(before.length)).toEqual(["ticket_status"]);
      // and the tools ahead of tool_search keep their bytes (its listing lost the loaded name)
      const ahead = (i: number) => {
        const sent = calls[i]!.tools!;
        return JSON.stringify(
          sent.slice(
            0,
            sent.findIndex((t) => t.name === "tool_search"),
          ),
        );
      };
      expect(ahead(2)).toBe(ahead(1));
      expect(ahead(1).length).toBeGreaterThan(2);
      // with the listing in an attachment, a load changes no byte of the tools sent before
      if (volatile === "attachments")
        expect(JSON.stringify(calls[2]!.tools!.slice(0, before.length))).toBe(
          JSON.stringify(calls[1]!.tools),
        );
      else expect(await aiSdkAttachments(plane)).toEqual([]);
      expect(Object.keys(tools)).toContain("ticket_status");
    },
  );

  it("with defer.mode=off nothing is deferred and the set has no tool_search", async () => {
    const plane = await open([DEFER_TICKETS, "defer.mode=off"]);
    const tools = await aiSdkTools(plane);
    expect(Object.keys(tools)).toContain("ticket_status");
    expect(Object.keys(tools)).not.toContain("tool_search");
  });

  it("a tool the harness loads between runs is in the set of the next run", async () => {
    const plane = await open([DEFER_TICKETS]);
    const tools = await aiSdkTools(plane);
    expect(await plane.load(["ticket_status"])).toEqual(["ticket_status"]);
    await aiSdkToolsSettled(tools);
    const model = scriptedModel((out, step) =>
      step === 0
        ? { tool: "ticket_status", input: { ticket_id: "T-1001", include_history: null } }
        : { text: String(out?.value) },
    );
    const result = await generateText({ model, tools, prompt: "status?", stopWhen: stepCountIs(3) });
    expect(sentNames(model.doGenerateCalls[0]!.tools)).toContain("ticket_status");
    expect(result.text).toContain("status: in_progress");
  });
});

describe("AI SDK adapter: a dropped tool set", () => {
  it("stops following the plane (a harness that builds a set every turn leaves none listening)", async () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) throw new Error("run under vitest.config.ts, which starts the test processes with --expose-gc");
    const plane = await open([DEFER_TICKETS]);
    let renders = 0;
    const catalog = plane.catalog.bind(plane);
    plane.catalog = (provider) => {
      renders++;
      return catalog(provider);
    };
    const kept = await aiSdkTools(plane);
    for (let i = 0; i < 20; i++) await aiSdkTools(plane);
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 5));
      gc();
    }
    renders = 0;
    await plane.load(["ticket_status"]);
    await aiSdkToolsSettled(kept);
    // one rebuild: the kept set's; the 20 dropped ones were collected and unsubscribed
    expect(renders).toBe(1);
    expect(Object.keys(kept)).toContain("ticket_status");
  });
});

/** A fetch that records each request body and answers with the next scripted JSON response. */
const anthropicUsage = { input_tokens: 10, output_tokens: 5 };

describe("AI SDK adapter, native forms through the provider packages", () => {
  it("anthropic: the tool search tool, deferred tools marked defer_loading, then a call of the found tool", async () => {
    const plane = await open([DEFER_TICKETS]);
    const tools = await aiSdkTools(plane, { provider: "anthropic" });
    const { bodies, fetch } = recordingFetch([
      {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude-test",
        content: [
          {
            type: "server_tool_use",
            id: "srvtoolu_1",
            name: "tool_search_tool_bm25",
            input: { query: "ticket" },
          },
          {
            type: "tool_search_tool_result",
            tool_use_id: "srvtoolu_1",
            content: {
              type: "tool_search_tool_search_result",
              tool_references: [{ type: "tool_reference", tool_name: "ticket_status" }],
            },
          },
          { type: "tool_use", id: "toolu_1", name: "ticket_status", input: { ticket_id: "T-1001" } },
        ],
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: anthropicUsage,
      },
      {
        id: "msg_2",
        type: "message",
        role: "assistant",
        model: "claude-test",
        content: [{ type: "text", text: "done" }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: anthropicUsage,
      },
    ]);
    const model = createAnthropic({ apiKey: "test", baseURL: "http://127.0.0.1:9/v1", fetch })("claude-test");
    const result = await generateText({
      model,
      tools,
      prompt: "status of T-1001?",
      stopWhen: stepCountIs(4),
    });
    const sent = bodies[0]!.tools as Array<Record<string, unknown>>;
    // Anthropic's documented shape: the search tool by type and name, deferred tools in full with defer_loading
    expect(sent).toContainEqual({ type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" });
    const ticket = sent.find((t) => t.name === "ticket_status")!;
    expect(ticket).toMatchObject({ defer_loading: true, input_schema: { type: "object" } });
    expect(typeof ticket.description).toBe("string");
    for (const t of sent.filter((t) => t.name !== "ticket_status" && !("type" in t)))
      expect(t.defer_loading, `${t.name} is resident`).toBeUndefined();
    // toolplane's own tool_search is not sent beside the provider's
    expect(sent.map((t) => t.name)).not.toContain("tool_search");
    // the found tool ran through the host and its result went back in the second request
    const toolResult = result.steps[0]!.toolResults.find((r) => r.toolName === "ticket_status");
    expect(toolResult?.output).toMatchObject({ tool: "ticket_status", isError: false });
    expect(JSON.stringify(bodies[1]!.messages)).toContain("status: in_progress");
  });

  it("openai-responses: the hosted tool_search, deferred function tools marked defer_loading, then a call", async () => {
    const plane = await open([DEFER_TICKETS]);
    const tools = await aiSdkTools(plane, { provider: "openai-responses" });
    const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15 };
    const { bodies, fetch } = recordingFetch([
      {
        id: "resp_1",
        object: "response",
        created_at: 1,
        model: "gpt-test",
        status: "completed",
        output: [
          {
            type: "function_call",
            id: "fc_1",
            call_id: "call_1",
            name: "ticket_status",
            arguments: JSON.stringify({ ticket_id: "T-1001", include_history: null }),
            status: "completed",
          },
        ],
        usage,
      },
      {
        id: "resp_2",
        object: "response",
        created_at: 2,
        model: "gpt-test",
        status: "completed",
        output: [
          {
            type: "message",
            id: "msg_2",
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: "done", annotations: [] }],
          },
        ],
        usage,
      },
    ]);
    const model = createOpenAI({ apiKey: "test", baseURL: "http://127.0.0.1:9/v1", fetch }).responses(
      "gpt-test",
    );
    const result = await generateText({
      model,
      tools,
      prompt: "status of T-1001?",
      stopWhen: stepCountIs(4),
    });
    const sent = bodies[0]!.tools as Array<Record<string, unknown>>;
    // OpenAI's documented shape: {type: "tool_search"} and function tools with defer_loading
    expect(sent).toContainEqual({ type: "tool_search" });
    expect(sent.find((t) => t.name === "ticket_status")).toMatchObject({
      type: "function",
      defer_loading: true,
      parameters: { type: "object" },
    });
    expect(
      sent.filter((t) => t.type === "function" && t.name !== "ticket_status").every((t) => !t.defer_loading),
    ).toBe(true);
    // toolplane's own tool_search is not sent beside the hosted one
    expect(sent.filter((t) => t.type === "function").map((t) => t.name)).not.toContain("tool_search");
    const toolResult = result.steps[0]!.toolResults.find((r) => r.toolName === "ticket_status");
    expect(toolResult?.output).toMatchObject({ tool: "ticket_status", isError: false });
    expect(JSON.stringify(bodies[1]!.input)).toContain("status: in_progress");
  });
});
