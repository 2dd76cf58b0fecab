import { afterEach, describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/index.js";
import { evalSelection } from "../../src/eval/index.js";
import { runCliAsync as runCli } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";
import { fakeChatServer, type SeenRequest } from "./fake-chat-server.js";

/** The CLI without blocking the event loop (the fake server lives in this process). */
const runCliAsync = (args: string[], env: NodeJS.ProcessEnv, cwd: string) => runCli(args, { env, cwd });

/** A model that reads the task: status questions get ticket_status, new tickets get nothing. */
const sensible = (req: SeenRequest) =>
  /status/i.test(req.body.messages.at(-1)!.content) ? ["ticket_status"] : [];

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function openPlane() {
  const p = tempProject();
  const plane = await Toolplane.open({ cwd: p.repo, env: p.env, bundledSkills: null });
  cleanups.push(() => plane.close());
  return { plane, p };
}

describe("eval selection (library)", () => {
  it("runs the declared cases through tool search", async () => {
    const { plane } = await openPlane();
    const report = await evalSelection(plane);
    const ticket = report.tools.find((t) => t.tool === "ticket_status")!;
    expect(ticket.search.cases.map((c) => c.expect)).toEqual(["select", "not-select"]);
    expect(ticket.ok).toBe(true);
    expect(ticket.endpoint).toBeUndefined();
    expect(report.untested).toContain("read");
    expect(report.ok).toBe(true);
  });

  it("asks the endpoint with the openai-chat catalog, the model and the key, once per case", async () => {
    const server = await fakeChatServer(sensible);
    cleanups.push(server.close);
    const { plane } = await openPlane();
    const report = await evalSelection(plane, {
      endpoint: { url: server.url, model: "fake-model", apiKey: "sk-test" },
    });
    expect(server.seen).toHaveLength(2);
    const first = server.seen[0]!;
    expect(first.url).toBe("/v1/chat/completions");
    expect(first.authorization).toBe("Bearer sk-test");
    expect(first.body.model).toBe("fake-model");
    expect(first.body.tools).toEqual((await plane.catalog("openai-chat")).tools);
    expect(first.body.messages.at(-1)).toEqual({
      role: "user",
      content: expect.stringContaining("T-1001"),
    });
    const ticket = report.tools.find((t) => t.tool === "ticket_status")!;
    expect(ticket.endpoint).toEqual({
      ok: true,
      cases: [
        expect.objectContaining({ expect: "select", called: ["ticket_status"], ok: true }),
        expect.objectContaining({ expect: "not-select", called: [], ok: true }),
      ],
    });
  });

  it("a model that calls the tool for everything fails the should-not-select case", async () => {
    const server = await fakeChatServer(() => ["ticket_status"]);
    cleanups.push(server.close);
    const { plane } = await openPlane();
    const report = await evalSelection(plane, { endpoint: { url: server.url, model: "eager" } });
    const ticket = report.tools.find((t) => t.tool === "ticket_status")!;
    expect(ticket.endpoint!.cases.map((c) => c.ok)).toEqual([true, false]);
    expect(ticket.ok).toBe(false);
    expect(report.ok).toBe(false);
    expect(report.summary.failed).toBe(1);
    // no key given: no Authorization header
    expect(server.seen[0]!.authorization).toBeUndefined();
  });
});

describe("toolplane eval selection (CLI)", () => {
  it("passes with a sensible model, takes the key from the environment, prints one JSON document", async () => {
    const server = await fakeChatServer(sensible);
    cleanups.push(server.close);
    const p = tempProject();
    const env = { ...p.env, TOOLPLANE_EVAL_API_KEY: "sk-from-env" };
    const r = await runCliAsync(
      ["eval", "selection", "--endpoint", server.url, "--model", "m1", "--json"],
      env,
      p.repo,
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ ok: true, model: "m1", summary: { failed: 0 } });
    expect(server.seen.every((s) => s.authorization === "Bearer sk-from-env")).toBe(true);
  });

  it("exits 1 when a case fails, and prints each case for people", async () => {
    const server = await fakeChatServer(() => ["ticket_status"]);
    cleanups.push(server.close);
    const p = tempProject();
    const r = await runCliAsync(
      ["eval", "selection", "--endpoint", server.url, "--model", "m"],
      p.env,
      p.repo,
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL ticket_status/);
    expect(r.stdout).toMatch(/FAIL model +not-select +called ticket_status/);
    expect(r.stdout).toMatch(/3\/4 cases passed \(model m\)/);
  });

  it("an endpoint that refuses is a one-line error naming the key variable; bad usage exits 2", async () => {
    const server = await fakeChatServer(() => ({ status: 401 }));
    cleanups.push(server.close);
    const p = tempProject();
    const r = await runCliAsync(
      ["eval", "selection", "--endpoint", server.url, "--model", "m"],
      p.env,
      p.repo,
    );
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/answered 401: set TOOLPLANE_EVAL_API_KEY/);
    const usage = await runCliAsync(["eval", "selection", "--endpoint", server.url], p.env, p.repo);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--endpoint and --model go together/);
  });

  it("without --endpoint it runs tool search only", async () => {
    const p = tempProject();
    const r = await runCliAsync(["eval", "selection", "--json"], p.env, p.repo);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.tools.map((t: { tool: string }) => t.tool)).toContain("ticket_status");
    expect(out.model).toBeUndefined();
  });

  it("a selection declaration that cannot fail (an empty side, a case without a task) fails the run, naming the tool", async () => {
    const decl = (name: string, selection: string) =>
      `{ name: "${name}", description: "The ${name} tool.", parameters: { type: "object", properties: {} }, output: { schema: { type: "string" }, render: (v) => v }, execute: () => "x", selection: ${selection} }`;
    const p = tempProject(
      {
        ".toolplane/config.json": JSON.stringify({ tools: { modules: ["one.mjs", "two.mjs"] } }),
        "one.mjs": `export const tools = [${decl("one_sided", '{ shouldSelect: [{ task: "do one" }], shouldNotSelect: [] }')}];`,
        "two.mjs": `export const tools = [${decl("taskless", '{ shouldSelect: [{ args: {} }], shouldNotSelect: [{ task: "x" }] }')}];`,
      },
      { trust: true },
    );
    const r = await runCliAsync(["eval", "selection"], p.env, p.repo);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /FAIL module:one\.mjs \(one_sided\) could not be read.*selection\.shouldNotSelect.*is empty/,
    );
    expect(r.stdout).toMatch(
      /FAIL module:two\.mjs \(taskless\) could not be read.*selection\.shouldSelect\[0\].*task/,
    );
    const json = JSON.parse((await runCliAsync(["eval", "selection", "--json"], p.env, p.repo)).stdout);
    expect(json.ok).toBe(false);
    expect(json.problems.map((x: { entry: string }) => x.entry).sort()).toEqual(["one_sided", "taskless"]);
  });

  it("a tool made without defineTool is checked by eval itself", async () => {
    const { plane } = await openPlane();
    const { defineTool } = await import("../../src/declare/index.js");
    const { GLOBAL_LAYER } = await import("../../src/register/index.js");
    const made = defineTool({
      name: "handmade",
      description: "A hand-made tool.",
      parameters: { type: "object", properties: {} },
      output: { schema: { type: "string" }, render: (v: string) => v },
      execute: () => "x",
    });
    // a selection set after definition, as a hand-made Tool object could carry
    const broken = {
      ...made,
      host: { ...made.host, selection: { shouldSelect: [{ task: "a" }], shouldNotSelect: [] } },
    };
    plane.tools.register(GLOBAL_LAYER, { name: "hand", enumerate: () => [broken as typeof made] });
    const report = await evalSelection(plane);
    const t = report.tools.find((x) => x.tool === "handmade")!;
    expect(t.ok).toBe(false);
    expect(t.malformed).toMatch(/selection\.shouldNotSelect is empty: give at least one task/);
    expect(report.ok).toBe(false);
  });
});
