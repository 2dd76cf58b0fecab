// Every guide's example (examples/<way>/, shown in docs/guides/<way>.md) run against the package as
// a user installs it: packed, installed into one consumer with the SDKs the guides use, each
// example transpiled as it is and run by node, with deferral on. The provider loops talk to a
// model on loopback that speaks the provider's wire API (test/helpers/wire-model.ts); the type
// check against the SDKs' own types is `npm run typecheck` (the examples are in tsconfig.json).
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { transform } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { installConsumer, npmEnv, packRepository, repoPackage } from "../helpers/pack.js";
import { tempDir, tempProject } from "../helpers/tmp.js";
import {
  anthropicMessage,
  functionCall,
  hostedSearch,
  openaiResponse,
  outputMessage,
  type SeenRequest,
  wireModel,
} from "../helpers/wire-model.js";

const run = promisify(execFile);
const dev = repoPackage.devDependencies as Record<string, string>;
/** Deferral on: the example integration, deferred whatever the threshold. */
const DEFERRAL = ["tools.examples=true", 'defer.tools={"ticket_status":"always"}'];
const PROMPT = "What is the status of ticket T-1001?";

const RUNNER = `const [way, file, options] = process.argv.slice(2);
const { main } = await import(\`./guides/\${way}/\${file}.mjs\`);
const out = await main({ ...JSON.parse(options), env: process.env });
console.log(JSON.stringify(out));
`;

let consumer: string;

beforeAll(async () => {
  const dir = tempDir("tp-guides-");
  const packed = packRepository(dir);
  consumer = path.join(dir, "consumer");
  installConsumer(consumer, packed, {
    zod: repoPackage.dependencies.zod,
    "@modelcontextprotocol/sdk": repoPackage.dependencies["@modelcontextprotocol/sdk"],
    "@anthropic-ai/sdk": dev["@anthropic-ai/sdk"]!,
    openai: dev.openai!,
    ai: dev.ai!,
    "@ai-sdk/openai": dev["@ai-sdk/openai"]!,
    "@openai/agents": dev["@openai/agents"]!,
  });
  // each example as it is, types stripped (esbuild: what a user's build does)
  for (const way of readdirSync(path.join(ROOT, "examples"))) {
    for (const file of readdirSync(path.join(ROOT, "examples", way))) {
      const source = readFileSync(path.join(ROOT, "examples", way, file), "utf8");
      mkdirSync(path.join(consumer, "guides", way), { recursive: true });
      if (file.endsWith(".ts")) {
        const { code } = await transform(source, { loader: "ts", format: "esm", target: "node20" });
        writeFileSync(path.join(consumer, "guides", way, file.replace(/\.ts$/, ".mjs")), code);
      } else writeFileSync(path.join(consumer, "guides", way, file), source);
    }
  }
  writeFileSync(path.join(consumer, "run.mjs"), RUNNER);
}, 300_000);

// the consumer's node_modules (~250 packages) before the temp cleanup, with time for a loaded machine
afterAll(() => rm(consumer, { recursive: true, force: true, maxRetries: 2 }), 300_000);

/** A hermetic project and the environment a user's process would have there. */
function project(files: Record<string, string> = {}) {
  const p = tempProject(files);
  const env = npmEnv({ ...p.env, TOOLPLANE_HOME: path.join(p.home, ".toolplane") });
  return { repo: p.repo, env };
}

async function example(way: string, file: string, options: object, env: NodeJS.ProcessEnv) {
  const { stdout } = await run(process.execPath, ["run.mjs", way, file, JSON.stringify(options)], {
    cwd: consumer,
    env,
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

/** The text of the last tool output a Responses request carries back to the model. */
function lastOutput(request: SeenRequest): string {
  const items = (request.body.input ?? []) as Array<{ type?: string; output?: unknown }>;
  const out = items.filter((i) => i.type === "function_call_output").at(-1)?.output;
  return typeof out === "string" ? out : JSON.stringify(out);
}

// independent runs (each its own project and model): concurrent, as their wall time is mostly waiting
describe.concurrent("the guides' examples, against the installed package, deferral on", () => {
  it("getting started: a tool declared, rendered, and two calls (one with a strict-mode null, one wrong)", async () => {
    const p = project();
    const out = await example("getting-started", "index", { cwd: p.repo }, p.env);
    const names = out.catalog.tools.map((t: { name?: string }) => t.name);
    expect(names).toContain("weather");
    expect(out.results[0]).toMatchObject({
      id: "call_1",
      isError: false,
      content: [{ text: "Lisbon: 18 °C" }],
    });
    expect(out.results[1]).toMatchObject({
      id: "call_2",
      isError: true,
      error: { code: "invalid_arguments" },
    });
    expect(out.results[1].error.message).toContain("/town: is not a parameter (known: city, units)");
  });

  it("a plain Anthropic SDK loop: native deferral sent as it renders, the tool's result read back", async () => {
    const model = await wireModel((req, n) => {
      if (n === 0)
        return anthropicMessage(
          [{ type: "tool_use", id: "toolu_1", name: "ticket_status", input: { ticket_id: "T-1001" } }],
          "tool_use",
        );
      const result = req.body.messages.at(-1).content[0];
      return anthropicMessage(
        [{ type: "text", text: `The tool said: ${result.content[0].text}` }],
        "end_turn",
      );
    });
    try {
      const p = project();
      const out = await example(
        "anthropic",
        "loop",
        { cwd: p.repo, prompt: PROMPT, baseURL: model.origin, set: DEFERRAL },
        p.env,
      );
      const first = model.requests[0]!;
      expect(first.path).toBe("/v1/messages");
      expect(first.body.tools).toContainEqual({
        type: "tool_search_tool_bm25_20251119",
        name: "tool_search_tool_bm25",
      });
      expect(first.body.tools.find((t: { name: string }) => t.name === "ticket_status")).toMatchObject({
        defer_loading: true,
      });
      expect(model.requests[1]!.body.messages.at(-1).content[0]).toMatchObject({
        type: "tool_result",
        tool_use_id: "toolu_1",
        is_error: false,
      });
      expect(out.text).toContain("status: in_progress");
    } finally {
      await model.close();
    }
  });

  it("a plain OpenAI Responses loop: strict schemas, the model leaves an optional parameter null, and it runs", async () => {
    const model = await wireModel((req, n) =>
      n === 0
        ? openaiResponse([
            ...hostedSearch("ticket status", ["ticket_status"]),
            functionCall("call_1", "ticket_status", { ticket_id: "T-1001", include_history: null }),
          ])
        : openaiResponse([outputMessage(`The tool said: ${lastOutput(req)}`)]),
    );
    try {
      const p = project();
      const out = await example(
        "openai-responses",
        "loop",
        { cwd: p.repo, prompt: PROMPT, baseURL: model.url, set: DEFERRAL },
        p.env,
      );
      const tools = model.requests[0]!.body.tools as Array<Record<string, unknown>>;
      const ticket = tools.find((t) => t.name === "ticket_status")!;
      expect(ticket).toMatchObject({ strict: true, defer_loading: true });
      expect(JSON.stringify(ticket.parameters)).toContain('"include_history":{"type":["boolean","null"]');
      expect(tools).toContainEqual({ type: "tool_search" });
      expect(lastOutput(model.requests[1]!)).toBe(
        "status: in_progress\nsummary: Login page returns 500 after password reset",
      );
      expect(out.text).toContain("status: in_progress");
    } finally {
      await model.close();
    }
  });

  it("the AI SDK (its OpenAI provider on loopback): tool_search, then the found tool, in one run", async () => {
    const model = await wireModel((req, n) => {
      if (n === 0)
        return openaiResponse([
          functionCall("c1", "tool_search", { query: "ticket status", pattern: null, limit: null }),
        ]);
      if (n === 1)
        return openaiResponse([
          functionCall("c2", "ticket_status", { ticket_id: "T-1001", include_history: null }),
        ]);
      return openaiResponse([outputMessage(`The tool said: ${lastOutput(req)}`)]);
    });
    try {
      const p = project();
      const out = await example(
        "ai-sdk",
        "run",
        { cwd: p.repo, prompt: PROMPT, baseURL: model.url, set: DEFERRAL },
        p.env,
      );
      const sent = model.requests.map((r) => (r.body.tools as Array<{ name: string }>).map((t) => t.name));
      expect(sent[0]).toContain("tool_search");
      expect(sent[0]).not.toContain("ticket_status");
      expect(sent[1]).toContain("ticket_status");
      expect(out.steps).toEqual([["tool_search"], ["ticket_status"], []]);
      expect(out.text).toContain("status: in_progress");
    } finally {
      await model.close();
    }
  });

  it("the OpenAI Agents SDK (its Responses model on loopback): hosted tool search, the deferred tool called", async () => {
    const model = await wireModel((req, n) =>
      n === 0
        ? openaiResponse([
            ...hostedSearch("ticket status", ["ticket_status"]),
            functionCall("call_1", "ticket_status", { ticket_id: "T-1001", include_history: null }),
          ])
        : openaiResponse([outputMessage(`The tool said: ${lastOutput(req)}`)]),
    );
    try {
      const p = project();
      const out = await example(
        "openai-agents",
        "run",
        { cwd: p.repo, prompt: PROMPT, baseURL: model.url, set: DEFERRAL },
        p.env,
      );
      const tools = model.requests[0]!.body.tools as Array<Record<string, unknown>>;
      expect(tools.some((t) => t.type === "tool_search")).toBe(true);
      expect(tools.find((t) => t.name === "ticket_status")).toMatchObject({ defer_loading: true });
      expect(out.text).toContain("status: in_progress");
    } finally {
      await model.close();
    }
  });

  it("toolplane serve for an MCP client: the deferred tool is searched, listed, then called", async () => {
    const p = project();
    const out = await example("serve", "client", { cwd: p.repo, set: DEFERRAL }, p.env);
    expect(out.instructions).toContain("ticket_status");
    expect(out.before).toContain("tool_search");
    expect(out.before).not.toContain("ticket_status");
    expect(out.found).toContain("ticket_status");
    expect(out.after).toContain("ticket_status");
    expect(out.status).toContain("status: in_progress");
  });

  it("the CLI for a person: the walkthrough's commands run as shown", async () => {
    const p = project({ "notes.txt": "a draft\n" });
    const env = {
      ...p.env,
      PATH: `${path.join(consumer, "node_modules", ".bin")}${path.delimiter}${p.env.PATH}`,
    };
    const { stdout } = await run("bash", [path.join(consumer, "guides", "cli", "walkthrough.sh")], {
      cwd: p.repo,
      env,
      timeout: 60_000,
    });
    expect(stdout).toMatch(/prefixHash: [0-9a-f]{64}/);
    expect(stdout).toContain("ticket_status");
    expect(stdout).toContain("status: in_progress");
    expect(readFileSync(path.join(p.repo, "notes.txt"), "utf8")).toBe("a final\n");
  });
});

describe("a mistake in the user's own code prints its message, not the bundle", () => {
  it.each([
    [
      "DeclarationError",
      `import { defineTool } from "toolplane";
import { z } from "zod";
defineTool({ name: "x", description: "d", parameters: z.object({}), execute: () => 1 });`,
      'DeclarationError: tool "x": output: is required',
    ],
    [
      "ConfigError",
      `import { Toolplane } from "toolplane";
await Toolplane.open({ cwd: process.cwd(), set: ["catalog.budget.chars=lots"] });`,
      'ConfigError: --set: "catalog.budget.chars" has the wrong type',
    ],
  ])("an uncaught %s: under 4,000 characters on stderr, message first", async (_name, code, says) => {
    const file = path.join(consumer, `mistake-${_name}.mjs`);
    writeFileSync(file, code);
    const p = project();
    const failed = await run(process.execPath, [file], { cwd: consumer, env: p.env }).then(
      () => undefined,
      (error: { stderr: string; code: number }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed!.stderr).toContain(says);
    expect(failed!.stderr.length).toBeLessThan(4_000);
  });
});
