// Deferral through both adapters on the package as installed from `npm pack`, at both ends of each
// supported SDK range: a mock model searches, then calls the tool it found, in one run. The
// consumer's script is plain JavaScript run by node, as a user's harness would be.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { NEWEST_CONSUMER, packedConsumer, SHARED_CONSUMER, workspace } from "../helpers/packed.js";
import { tempProject } from "../helpers/tmp.js";

const HARNESS = `import { Toolplane } from "toolplane";
import { aiSdkAttachments, aiSdkTools } from "toolplane/ai-sdk";
import { deferredToolErrors, openaiAgentsAttachments, openaiAgentsTools } from "toolplane/openai-agents";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { Agent, run, setTraceProcessors, setTracingDisabled, Usage } from "@openai/agents";

setTracingDisabled(true);
setTraceProcessors([]);
const [cwd, mode] = process.argv.slice(2);
const set = ["tools.examples=true", 'defer.tools={"ticket_status":"always"}'];
if (mode === "off") set.push("defer.mode=off");
const STATUS = { ticket_id: "T-1001", include_history: null };
const script = mode === "off"
  ? [["ticket_status", STATUS]]
  : [["tool_search", { query: "ticket status lookup", pattern: null, limit: null }], ["ticket_status", STATUS]];
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

async function viaAiSdk() {
  const plane = await Toolplane.open({ cwd, env: process.env, set });
  const tools = await aiSdkTools(plane);
  // the deferred names travel in the attachment message, sent after the conversation
  const attached = await aiSdkAttachments(plane);
  const sent = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      sent.push((options.tools ?? []).map((t) => t.name));
      const step = script[sent.length - 1];
      if (!step) {
        const last = options.prompt.at(-1).content[0].output;
        return { content: [{ type: "text", text: String(last.value) }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
      }
      return {
        content: [{ type: "tool-call", toolCallId: "c" + sent.length, toolName: step[0], input: JSON.stringify(step[1]) }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [],
      };
    },
  });
  const result = await generateText({
    model, tools, stopWhen: stepCountIs(5),
    messages: [{ role: "user", content: "status of T-1001?" }, ...attached],
  });
  await plane.close();
  return { sent, text: result.text, attached: JSON.stringify(attached) };
}

async function viaAgents() {
  const plane = await Toolplane.open({ cwd, env: process.env, set });
  const native = (await openaiAgentsTools(plane)).map((t) => ({ type: t.type, name: t.name, deferLoading: t.deferLoading === true }));
  const tools = await openaiAgentsTools(plane, { provider: "openai-chat" });
  const attached = JSON.stringify(await openaiAgentsAttachments(plane, { provider: "openai-chat" }));
  const sent = [];
  const outputs = [];
  const model = {
    async getResponse(request) {
      sent.push(request.tools.map((t) => t.name));
      const last = typeof request.input === "string" ? undefined : request.input.at(-1);
      if (last?.type === "function_call_result") outputs.push(typeof last.output === "string" ? last.output : JSON.stringify(last.output));
      const step = script[sent.length - 1];
      const output = step
        ? [{ type: "function_call", callId: "c" + sent.length, name: step[0], status: "completed", arguments: JSON.stringify(step[1]) }]
        : [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: outputs.at(-1) }] }];
      return { usage: new Usage(), output };
    },
    async *getStreamedResponse() { throw new Error("not scripted"); },
  };
  const agent = new Agent({ name: "packed", instructions: "help", model, tools });
  const result = await run(agent, "status of T-1001?", {
    toolNotFoundBehavior: "return_error_to_model",
    toolErrorFormatter: deferredToolErrors(plane),
  });
  await plane.close();
  return { native, sent, text: result.finalOutput, attached };
}

console.log(JSON.stringify({ ai: await viaAiSdk(), agents: await viaAgents() }));
`;

const newest = {
  ai: NEWEST_CONSUMER.dependencies.ai!,
  agents: NEWEST_CONSUMER.dependencies["@openai/agents"]!,
};
/** Each end's consumer: the lowest is the run's shared one (it holds the lowest SDKs), the newest its own. */
const ENDS = {
  lowest: {
    ai: SHARED_CONSUMER.ai!,
    agents: SHARED_CONSUMER["@openai/agents"]!,
    consumer: () => packedConsumer(),
  },
  newest: {
    ...newest,
    consumer: () => packedConsumer(NEWEST_CONSUMER.dependencies, NEWEST_CONSUMER.aliases),
  },
};

describe.each(Object.entries(ENDS))("deferral through the installed adapters (%s SDKs)", (_end, versions) => {
  let consumer: string;
  let own: string;
  beforeAll(async () => {
    consumer = await versions.consumer();
    own = workspace(consumer, "pack-deferral");
    writeFileSync(path.join(own, "harness.mjs"), HARNESS);
  }, 600_000);

  function harness(mode: "on" | "off") {
    const project = tempProject();
    const out = execFileSync(process.execPath, [path.join(own, "harness.mjs"), project.repo, mode], {
      cwd: own,
      env: { ...project.env, TOOLPLANE_HOME: path.join(project.home, ".toolplane") },
      encoding: "utf8",
    });
    return JSON.parse(out.trim().split("\n").at(-1)!);
  }

  it("installs the SDK versions this end names", () => {
    const version = (name: string) =>
      JSON.parse(readFileSync(path.join(consumer, "node_modules", name, "package.json"), "utf8")).version;
    expect(version("ai")).toBe(versions.ai);
    expect(version("@openai/agents")).toBe(versions.agents);
  });

  it("deferral on: tool_search, then the found tool, in one run of each SDK", () => {
    const r = harness("on");
    // AI SDK: the first request has tool_search and not the deferred tool; the step after the search has it
    expect(r.ai.sent[0]).toContain("tool_search");
    expect(r.ai.sent[0]).not.toContain("ticket_status");
    expect(r.ai.sent[1]).toContain("ticket_status");
    expect(r.ai.text).toContain("status: in_progress");
    // Agents, names form: the same; native form: the hosted search and a deferLoading tool
    expect(r.agents.sent[0]).toContain("tool_search");
    expect(r.agents.sent[0]).not.toContain("ticket_status");
    expect(r.agents.sent[1]).toContain("ticket_status");
    expect(r.agents.text).toContain("status: in_progress");
    expect(r.agents.native).toContainEqual({ type: "function", name: "ticket_status", deferLoading: true });
    expect(r.agents.native.some((t: { type: string }) => t.type === "hosted_tool")).toBe(true);
    // the installed adapters give the deferred names as the attachment message
    expect(r.ai.attached).toContain("ticket_status");
    expect(r.agents.attached).toContain("ticket_status");
  });

  it("deferral off: the tool is sent from the start and there is no tool_search", () => {
    const r = harness("off");
    expect(r.ai.sent[0]).toContain("ticket_status");
    expect(r.ai.sent[0]).not.toContain("tool_search");
    expect(r.ai.text).toContain("status: in_progress");
    expect(r.agents.sent[0]).toContain("ticket_status");
    expect(r.agents.text).toContain("status: in_progress");
    expect(r.agents.native.some((t: { type: string }) => t.type === "hosted_tool")).toBe(false);
    expect(r.ai.attached).not.toContain("ticket_status");
  });
});
