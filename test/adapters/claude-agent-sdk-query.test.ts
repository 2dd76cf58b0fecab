// The Claude Agent SDK end to end: `query()` runs the SDK's bundled Claude Code (0.2.86: cli.js on
// Node; 0.3.x: the platform binary) against a loopback Anthropic Messages API, with
// claudeAgentSdkServer(plane) as an mcpServers entry; the fake model scripts search, call, answer.
// Claude Code names the tools mcp__SERVER__TOOL and allows them by allowedTools.
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, inject, it, onTestFinished } from "vitest";
import { claudeAgentSdkServer } from "../../src/adapters/claude-agent-sdk.js";
import { Toolplane } from "../../src/assemble/index.js";
import { type MessagesReply, messagesServer } from "../helpers/provider-fakes.js";
import { tempProject } from "../helpers/tmp.js";

const DEFER_TICKETS = 'defer.tools={"ticket_status":"always"}';
const SEARCH = "mcp__tp__tool_search";
const STATUS = "mcp__tp__ticket_status";
// 0.2.x's bundled CLI reads an SDK server's tools once per query(): tools/list_changed refreshes
// them only in its interactive mode; 0.3.x refreshes them within the run
const newest = inject("peers").claude !== "@anthropic-ai/claude-agent-sdk";

const use = (id: string, name: string, input: object): MessagesReply => ({
  content: [{ type: "tool_use", id, name, input }],
  stop: "tool_use",
});
const say = (text: string): MessagesReply => ({ content: [{ type: "text", text }], stop: "end_turn" });

/** A plane, its SDK server, and a loopback model answering the main loop's requests in order. */
async function setup(set: string[], script: MessagesReply[]) {
  const p = tempProject();
  const plane = await Toolplane.open({ cwd: p.repo, env: p.env, set, bundledSkills: null });
  onTestFinished(() => plane.close());
  const tp = await claudeAgentSdkServer(plane, { name: "tp" });
  let step = 0;
  // a request without toolplane's tools is Claude Code's own side request (a title, a check)
  const model = await messagesServer((body) =>
    JSON.stringify(body.tools ?? []).includes('"mcp__tp__') ? script[step++]! : say("ok"),
  );
  onTestFinished(() => void model.server.close());
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: p.home,
    CLAUDE_CONFIG_DIR: `${p.home}/.claude`,
    ANTHROPIC_BASE_URL: model.baseURL,
    ANTHROPIC_API_KEY: "test",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  };
  const run = async (prompt: string) => {
    const messages: SDKMessage[] = [];
    const q = query({
      prompt,
      options: {
        cwd: p.repo,
        env,
        mcpServers: { tp },
        // Claude Code's own tools off, toolplane's allowed as the guide writes it (the host still decides each call)
        tools: [],
        allowedTools: ["mcp__tp__*"],
        settingSources: [],
        model: "claude-sonnet-4-5",
        maxTurns: 6,
      },
    });
    for await (const m of q) messages.push(m);
    return messages;
  };
  return { run, model };
}

/** What the model was sent as each tool's result, by tool_use id. */
function toolResults(messages: SDKMessage[]): Map<string, { text: string; isError: boolean }> {
  const out = new Map<string, { text: string; isError: boolean }>();
  for (const m of messages) {
    if (m.type !== "user" || !Array.isArray(m.message.content)) continue;
    for (const block of m.message.content as unknown as Array<Record<string, unknown>>) {
      if (block.type !== "tool_result") continue;
      const c = block.content;
      const text = Array.isArray(c) ? c.map((b: { text?: string }) => b.text ?? "").join("") : String(c);
      out.set(String(block.tool_use_id), { text, isError: block.is_error === true });
    }
  }
  return out;
}
const answerOf = (messages: SDKMessage[]) => {
  const last = messages.at(-1);
  return last?.type === "result" && last.subtype === "success" ? last.result : undefined;
};
const toolNames = (body: Record<string, unknown>) =>
  (body.tools as Array<{ name: string }>).map((t) => t.name);

describe("query() with claudeAgentSdkServer against a loopback Messages API", () => {
  it("deferral on: tool_search, then the deferred tool, then the answer", async () => {
    const search = use("toolu_search", SEARCH, { query: "ticket status lookup" });
    const call = use("toolu_call", STATUS, { ticket_id: "T-1001" });
    const s = await setup([DEFER_TICKETS], [search, call, say("answered"), call, say("answered again")]);
    const first = await s.run("status of T-1001?");
    expect(answerOf(first)).toBe("answered");
    expect(toolNames(s.model.bodies[0]!)).toContain(SEARCH);
    expect(toolNames(s.model.bodies[0]!)).not.toContain(STATUS);
    const results = toolResults(first);
    // the model reads toolplane's text (not the canonical JSON)
    expect(results.get("toolu_search")!.text).toMatch(
      /^Matching tools, best first \(callable from the next turn\):\n- ticket_status \(.*\nLoaded now: ticket_status\.$/s,
    );
    if (newest) {
      // list_changed refreshed Claude Code's tools: the call ran, the next request lists the tool
      expect(results.get("toolu_call")).toEqual({
        text: expect.stringContaining("status: in_progress"),
        isError: false,
      });
      expect(toolNames(s.model.bodies[2]!)).toContain(STATUS);
      return;
    }
    // 0.2.x: the tool is listed from the next query() on (the plane's session keeps it loaded)
    expect(results.get("toolu_call")).toEqual({
      text: expect.stringContaining("No such tool available: mcp__tp__ticket_status"),
      isError: true,
    });
    const second = await s.run("and now?");
    expect(answerOf(second)).toBe("answered again");
    expect(toolNames(s.model.bodies[3]!)).toContain(STATUS);
    expect(toolResults(second).get("toolu_call")).toEqual({
      text: expect.stringContaining("status: in_progress"),
      isError: false,
    });
  });

  it("deferral off: the tool is listed from the start; a call the permission rules deny is refused, the next runs", async () => {
    const s = await setup(
      [
        DEFER_TICKETS,
        "defer.mode=off",
        'permissions.rules=[{"effect":"deny","param":{"pointer":"/ticket_id","glob":"INC-*"}}]',
      ],
      [
        use("toolu_denied", STATUS, { ticket_id: "INC-7" }),
        use("toolu_call", STATUS, { ticket_id: "T-1001" }),
        say("answered"),
      ],
    );
    const messages = await s.run("status of INC-7 and T-1001?");
    expect(answerOf(messages)).toBe("answered");
    expect(toolNames(s.model.bodies[0]!)).toContain(STATUS);
    expect(toolNames(s.model.bodies[0]!)).not.toContain(SEARCH);
    const results = toolResults(messages);
    expect(results.get("toolu_denied")).toEqual({ text: expect.stringMatching(/denied/), isError: true });
    expect(results.get("toolu_call")).toEqual({
      text: expect.stringContaining("status: in_progress"),
      isError: false,
    });
  });
});
