// LangChain and the Claude Agent SDK on the package as installed from `npm pack`, at both ends of
// each declared range (langchain 1.2.39 with @langchain/core 1.3.4, and 1.5.14 with 1.4.0; the
// Claude Agent SDK 0.2.86 and 0.3.337): a plain JavaScript harness, run by node as a user's would
// be, drives createAgent with toolplaneMiddleware on LangChain's fakeModel, and the server
// claudeAgentSdkServer returns through the MCP SDK's client (how the Agent SDK connects an
// in-process server): search, then call, with deferral on and off, and a call the rules deny.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { NEWEST_CONSUMER, packedConsumer, SHARED_CONSUMER, workspace } from "../helpers/packed.js";
import { type MessagesReply, messagesServer } from "../helpers/provider-fakes.js";
import { tempProject } from "../helpers/tmp.js";

const HARNESS = `import { Toolplane } from "toolplane";
import { toolplaneMiddleware } from "toolplane/langchain";
import { claudeAgentSdkServer } from "toolplane/claude-agent-sdk";
import { AIMessage, createAgent, createMiddleware, fakeModel, HumanMessage, ToolMessage } from "langchain";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";

const [cwd, mode] = process.argv.slice(2);
const set = ["tools.examples=true", 'defer.tools={"ticket_status":"always"}',
  'permissions.rules=[{"effect":"deny","param":{"pointer":"/ticket_id","glob":"INC-*"}}]'];
if (mode === "off") set.push("defer.mode=off");
const STATUS = { ticket_id: "T-1001", include_history: null };
const DENIED = { ticket_id: "INC-7", include_history: null };
const script = mode === "off"
  ? [["ticket_status", DENIED], ["ticket_status", STATUS]]
  : [["tool_search", { query: "ticket status lookup", pattern: null, limit: null }], ["ticket_status", DENIED], ["ticket_status", STATUS]];

async function viaLangChain() {
  const plane = await Toolplane.open({ cwd, env: process.env, set });
  const model = fakeModel();
  for (const [i, [name, args]] of script.entries()) model.respondWithTools([{ name, args, id: "call-" + i }]);
  model.respond(new AIMessage("answered"));
  const sent = [];
  const recorder = createMiddleware({
    name: "recorder",
    wrapModelCall: (request, handler) => {
      sent.push((request.tools ?? []).map((t) => t.name));
      return handler(request);
    },
  });
  const agent = createAgent({ model, tools: [], middleware: [toolplaneMiddleware(plane), recorder] });
  const state = await agent.invoke({ messages: [new HumanMessage("status of T-1001?")] });
  const results = state.messages.filter((m) => ToolMessage.isInstance(m)).map((m) => ({ text: String(m.content), status: m.status ?? "success" }));
  await plane.close();
  return { sent, results, answer: String(state.messages.at(-1).content) };
}

async function viaClaudeAgentSdk() {
  const plane = await Toolplane.open({ cwd, env: process.env, set });
  const config = await claudeAgentSdkServer(plane);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await config.instance.connect(serverSide);
  const client = new Client({ name: "harness", version: "1.0.0" });
  await client.connect(clientSide);
  const listed = [];
  const results = [];
  for (const [name, args] of script) {
    listed.push((await client.listTools()).tools.map((t) => t.name));
    const r = await client.callTool({ name, arguments: args });
    results.push({ text: r.content.map((b) => b.text ?? "").join(""), isError: r.isError === true });
  }
  await client.close();
  await plane.close();
  return { type: config.type, listed, results };
}

console.log(JSON.stringify({ langchain: await viaLangChain(), claude: await viaClaudeAgentSdk() }));
`;

/** Runs a guide's example (examples/WAY/main.mjs, as the guide shows it) with a scripted model. */
const GUIDE_RUNNER = `const [way, cwd, setJson] = process.argv.slice(2);
const { main } = await import(\`./guides/\${way}/main.mjs\`);
const set = JSON.parse(setJson);
if (way === "langchain") {
  const { AIMessage, fakeModel } = await import("langchain");
  const model = fakeModel();
  model.respondWithTools([{ name: "tool_search", args: { query: "ticket status lookup", pattern: null, limit: null }, id: "c1" }]);
  model.respondWithTools([{ name: "ticket_status", args: { ticket_id: "T-1001", include_history: null }, id: "c2" }]);
  model.respond((messages) => new AIMessage(String(messages.at(-1).content)));
  console.log(JSON.stringify(await main({ cwd, model, set })));
} else console.log(JSON.stringify(await main({ cwd, set })));
`;
const DEFERRAL = ["tools.examples=true", 'defer.tools={"ticket_status":"always"}'];
const run = promisify(execFile);

/** Each end's consumer, shared with the other package tests (test/helpers/packed.ts). */
const ENDS = {
  lowest: { versions: SHARED_CONSUMER, consumer: () => packedConsumer() },
  newest: {
    versions: NEWEST_CONSUMER.dependencies,
    consumer: () => packedConsumer(NEWEST_CONSUMER.dependencies, NEWEST_CONSUMER.aliases),
  },
};
const FRAMEWORKS = ["langchain", "@langchain/core", "@anthropic-ai/claude-agent-sdk"] as const;

describe.each(Object.entries(ENDS))(
  "LangChain and the Claude Agent SDK installed with the package (%s)",
  (_end, { versions, consumer: install }) => {
    /** The shared consumer (its node_modules) and this file's folder in it (the files it runs). */
    let consumer: string;
    let own: string;
    beforeAll(async () => {
      consumer = await install();
      own = workspace(consumer, "frameworks");
      writeFileSync(path.join(own, "harness.mjs"), HARNESS);
      writeFileSync(path.join(own, "guide.mjs"), GUIDE_RUNNER);
      for (const way of ["langchain", "claude-agent-sdk"]) {
        mkdirSync(path.join(own, "guides", way), { recursive: true });
        const source = readFileSync(path.join(ROOT, "examples", way, "main.mjs"), "utf8");
        writeFileSync(path.join(own, "guides", way, "main.mjs"), source);
      }
    }, 600_000);

    /** A guide's example run by node in the consumer (async: a loopback model may answer it from here). */
    async function guide(way: string, set: string[], env: NodeJS.ProcessEnv = {}) {
      const project = tempProject();
      const { stdout } = await run(process.execPath, ["guide.mjs", way, project.repo, JSON.stringify(set)], {
        cwd: own,
        env: { ...project.env, TOOLPLANE_HOME: path.join(project.home, ".toolplane"), ...env },
        timeout: 60_000,
      });
      return JSON.parse(stdout.trim().split("\n").at(-1)!);
    }

    async function harness(mode: "on" | "off") {
      const project = tempProject();
      const { stdout } = await run(process.execPath, [path.join(own, "harness.mjs"), project.repo, mode], {
        cwd: own,
        env: { ...project.env, TOOLPLANE_HOME: path.join(project.home, ".toolplane") },
        timeout: 60_000,
      });
      return JSON.parse(stdout.trim().split("\n").at(-1)!);
    }

    it("installs the framework versions this end names", () => {
      const version = (name: string) =>
        JSON.parse(readFileSync(path.join(consumer, "node_modules", name, "package.json"), "utf8")).version;
      for (const name of FRAMEWORKS) expect(version(name)).toBe(versions[name]);
    });

    // each run is its own node process and project: side by side, as their time is mostly start-up
    it.concurrent("deferral on: tool_search, then the found tool; a denied call is refused", async () => {
      const { langchain, claude } = await harness("on");
      expect(langchain.sent[0]).toContain("tool_search");
      expect(langchain.sent[0]).not.toContain("ticket_status");
      expect(langchain.sent[1]).toEqual([...langchain.sent[0], "ticket_status"]);
      expect(langchain.results[0].text).toContain("Loaded now: ticket_status");
      expect(langchain.results[1]).toEqual({ text: expect.stringMatching(/denied/), status: "error" });
      expect(langchain.results[2]).toEqual({
        text: expect.stringContaining("status: in_progress"),
        status: "success",
      });
      expect(langchain.answer).toBe("answered");
      expect(claude.type).toBe("sdk");
      expect(claude.listed[0]).toContain("tool_search");
      expect(claude.listed[0]).not.toContain("ticket_status");
      expect(claude.listed[1]).toEqual([...claude.listed[0], "ticket_status"]);
      expect(claude.results[0].text).toContain("Loaded now: ticket_status");
      expect(claude.results[1]).toEqual({ text: expect.stringMatching(/denied/), isError: true });
      expect(claude.results[2]).toEqual({
        text: expect.stringContaining("status: in_progress"),
        isError: false,
      });
    });

    it.concurrent("deferral off: the tool from the start, no tool_search; a denied call is refused", async () => {
      const { langchain, claude } = await harness("off");
      expect(langchain.sent[0]).toContain("ticket_status");
      expect(langchain.sent[0]).not.toContain("tool_search");
      expect(langchain.results[0]).toEqual({ text: expect.stringMatching(/denied/), status: "error" });
      expect(langchain.results[1].text).toContain("status: in_progress");
      expect(claude.listed[0]).toContain("ticket_status");
      expect(claude.listed[0]).not.toContain("tool_search");
      expect(claude.results[0]).toEqual({ text: expect.stringMatching(/denied/), isError: true });
      expect(claude.results[1]).toEqual({
        text: expect.stringContaining("status: in_progress"),
        isError: false,
      });
    });

    it.concurrent("the LangChain guide's example: search, then the found tool, then the answer", async () => {
      expect(await guide("langchain", DEFERRAL)).toContain("status: in_progress");
    });

    it.concurrent("the Claude Agent SDK guide's example: query() with the bundled Claude Code on a loopback model", async () => {
      // 0.2.x lists the server's tools once per query() (docs/guides/claude-agent-sdk.md): deferral off there
      const newest = _end === "newest";
      const set = newest ? DEFERRAL : [...DEFERRAL, "defer.mode=off"];
      const use = (id: string, name: string, input: object): MessagesReply => ({
        content: [{ type: "tool_use", id, name: `mcp__toolplane__${name}`, input }],
        stop: "tool_use",
      });
      const script = [
        ...(newest ? [use("t1", "tool_search", { query: "ticket status lookup" })] : []),
        use("t2", "ticket_status", { ticket_id: "T-1001" }),
      ];
      let step = 0;
      const model = await messagesServer((body) => {
        if (JSON.stringify(body.tools ?? []).includes("mcp__toolplane__") && step < script.length)
          return script[step++]!;
        // the answer: the text of the last tool result the model was sent
        const messages = body.messages as Array<{ content: unknown }>;
        const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
        const result = blocks.filter((b) => b.type === "tool_result").at(-1);
        return {
          content: [{ type: "text", text: JSON.stringify(result?.content ?? "none") }],
          stop: "end_turn",
        };
      });
      try {
        const answer = await guide("claude-agent-sdk", set, {
          ANTHROPIC_BASE_URL: model.baseURL,
          ANTHROPIC_API_KEY: "test",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          DISABLE_AUTOUPDATER: "1",
        });
        expect(step).toBe(script.length);
        expect(answer).toContain("status: in_progress");
      } finally {
        model.server.close();
      }
    });
  },
);
