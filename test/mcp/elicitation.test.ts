// A server's elicitation (a form it asks the client's user to fill in), answered by toolplane's
// client: the checks of what is asked and of the answer, then along the user's paths: `toolplane
// call --yes` (the schema's defaults, or decline), no one to answer (not offered at all), a person
// at a terminal, and a harness's onElicitation through Toolplane.open.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/index.js";
import {
  answerProblems,
  defaultAnswer,
  type ElicitationRequest,
  readElicitation,
} from "../../src/mcp/client/elicitation.js";
import { CLI, runCliAsync } from "../helpers/cli.js";
import { startElicitingServer } from "../helpers/mcp-http.js";
import { HAS_SCRIPT, TTY_SKIP } from "../helpers/terminal.js";
import { tempProject } from "../helpers/tmp.js";

/** The conformance suite's SEP-1034 form: every field optional, each with a default. */
const DEFAULTS_FORM = {
  type: "object",
  properties: {
    name: { type: "string", description: "User name", default: "John Doe" },
    age: { type: "integer", description: "User age", default: 30 },
    score: { type: "number", description: "User score", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
  },
  required: [],
};
const NEEDS_ANSWER = {
  type: "object",
  properties: {
    email: { type: "string", format: "email", title: "Email" },
    plan: {
      type: "string",
      oneOf: [
        { const: "free", title: "Free" },
        { const: "pro", title: "Pro" },
      ],
      default: "free",
    },
    seats: { type: "integer", minimum: 1, maximum: 10 },
  },
  required: ["email", "plan"],
};

describe("what a server may ask, and what goes back", () => {
  it("reads MCP's primitive fields, with their defaults", () => {
    const { fields } = readElicitation({ message: "m", requestedSchema: DEFAULTS_FORM });
    expect(fields.map((f) => [f.name, f.type, f.default])).toEqual([
      ["name", "string", "John Doe"],
      ["age", "integer", 30],
      ["score", "number", 95.5],
      ["status", "enum", "active"],
      ["verified", "boolean", true],
    ]);
    expect(defaultAnswer(fields)).toEqual({
      action: "accept",
      content: { name: "John Doe", age: 30, score: 95.5, status: "active", verified: true },
    });
    // a required field without a default: --yes never invents a value
    expect(defaultAnswer(readElicitation({ message: "m", requestedSchema: NEEDS_ANSWER }).fields)).toEqual({
      action: "decline",
    });
  });

  it("refuses what is not MCP's flat form, and forms past their bounds", () => {
    const refuse =
      (schema: unknown, message = "m") =>
      () =>
        readElicitation({ message, requestedSchema: schema });
    expect(refuse({ type: "object", properties: { a: { type: "object" } } })).toThrow(
      /field "a" has type "object"/,
    );
    expect(refuse({ type: "object", properties: { a: { type: "string", pattern: "(a+)+$" } } })).toThrow(
      /uses "pattern", which elicitation schemas do not allow/,
    );
    expect(refuse({ type: "object", properties: { a: { type: "string", default: 3 } } })).toThrow(
      /its default must be text/,
    );
    expect(refuse({ type: "object", properties: {}, required: ["ghost"] })).toThrow(
      /required must list names/,
    );
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, { type: "boolean" }]));
    expect(refuse({ type: "object", properties: many })).toThrow(/51 fields, over 50/);
    const huge = { type: "object", properties: { a: { type: "string", description: "x".repeat(40_000) } } };
    expect(refuse(huge)).toThrow(/bytes, over 32768/);
    expect(refuse(DEFAULTS_FORM, "x".repeat(4001))).toThrow(/message is over 4000 characters/);
  });

  it("checks an answer against the form", () => {
    const { fields } = readElicitation({ message: "m", requestedSchema: NEEDS_ANSWER });
    expect(answerProblems(fields, { email: "a@b.io", plan: "pro", seats: 3 })).toEqual([]);
    expect(answerProblems(fields, { email: "nope", plan: "gold", seats: 11, extra: 1 })).toEqual([
      '"extra" is not a field of the form',
      '"email" must be an email address',
      '"plan" must be one of "free", "pro"',
      '"seats" must be at most 10',
    ]);
    expect(answerProblems(fields, { plan: "free" })).toEqual(['"email" is required']);
  });
});

let server: { url: string; close(): Promise<void> };
beforeAll(async () => {
  server = await startElicitingServer();
});
afterAll(async () => {
  await server?.close();
});

const project = () =>
  tempProject({
    ".toolplane/config.json": JSON.stringify({ mcp: { servers: { forms: { url: server.url } } } }),
  });
const ask = (schema: unknown) => JSON.stringify({ message: "Set up your account", schema });

describe.concurrent("toolplane call", () => {
  // (--yes accepting a form whose fields all have defaults: the conformance suite's
  // elicitation-sep1034-client-defaults, test/mcp/conformance-client.test.ts)
  it("--yes declines when a required field has no default", async () => {
    const p = project();
    const declined = await runCliAsync(
      ["call", "mcp__forms__ask", "--yes", "--json", "--args", ask(NEEDS_ANSWER)],
      {
        cwd: p.repo,
        env: p.bareEnv,
      },
    );
    expect(JSON.parse(JSON.parse(declined.stdout).content[0].text)).toEqual({ action: "decline" });
    expect(declined.stderr).toContain(
      'MCP server "forms" asked: Set up your account; declined (--yes): email has no default',
    );
  });

  it("with no one to answer (no --yes, no terminal) the client does not offer elicitation", async () => {
    const p = project();
    const [caps, withYes] = await Promise.all([
      runCliAsync(["call", "mcp__forms__caps", "--json"], { cwd: p.repo, env: p.bareEnv }),
      runCliAsync(["call", "mcp__forms__caps", "--yes", "--json"], { cwd: p.repo, env: p.bareEnv }),
    ]);
    expect(JSON.parse(JSON.parse(caps.stdout).content[0].text)).toEqual({});
    expect(JSON.parse(JSON.parse(withYes.stdout).content[0].text)).toEqual({ elicitation: { form: {} } });
  });

  it("a schema toolplane refuses never reaches the person: the server gets the reason", async () => {
    const p = project();
    const nested = { type: "object", properties: { address: { type: "object", properties: {} } } };
    const r = await runCliAsync(["call", "mcp__forms__ask", "--yes", "--json", "--args", ask(nested)], {
      cwd: p.repo,
      env: p.bareEnv,
    });
    const text = JSON.parse(r.stdout).content[0].text;
    expect(text).toContain(
      'error: MCP error -32602: toolplane refused the elicitation request: field "address" has type "object"; allowed: string, number, integer, boolean, array',
    );
    expect(r.stderr).not.toContain("asked:");
  });

  it.skipIf(!HAS_SCRIPT)(
    "on a terminal the person fills in the form, field by field, values checked",
    async () => {
      if (!HAS_SCRIPT) throw new Error(TTY_SKIP);
      const p = project();
      // each prompt, and what the person types; the first seats value is out of range, so it is asked again
      const script: Array<[RegExp, string]> = [
        [/Answer it\? \[y\/N\] $/, "y"],
        [/Email \(string; required\): $/, "me@example.com"],
        [/plan \(a number; required; Enter for "free"\): $/, "2"],
        [/seats \(integer; optional\): $/, "11"],
        [/must be at most 10\r?\n {2}seats \(integer; optional\): $/, "4"],
      ];
      const args = ["call", "mcp__forms__ask", "--json", "--args", ask(NEEDS_ANSWER)];
      const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
      const output = await new Promise<string>((resolve, reject) => {
        const child = spawn(
          "script",
          ["-qec", [process.execPath, CLI, ...args].map(quote).join(" "), "/dev/null"],
          {
            cwd: p.repo,
            env: { ...p.bareEnv, SHELL: "/bin/sh", TERM: "dumb" },
          },
        );
        let out = "";
        let step = 0;
        const timer = setTimeout(() => {
          child.kill("SIGKILL");
          reject(new Error(`the terminal run did not end at step ${step}; it printed: ${out}`));
        }, 40_000);
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString("utf8");
          const next = script[step];
          if (next?.[0].test(out)) {
            step++;
            child.stdin.write(`${next[1]}\r`);
          }
        });
        child.on("close", () => {
          clearTimeout(timer);
          resolve(out);
        });
      });
      expect(output).toContain('MCP server "forms" asks:\r\n  Set up your account');
      expect(output).toContain("1. Free");
      const result = JSON.parse(output.slice(output.indexOf("{")).replace(/\r/g, ""));
      expect(JSON.parse(result.content[0].text)).toEqual({
        action: "accept",
        content: { email: "me@example.com", plan: "pro", seats: 4 },
      });
    },
  );
});

describe("a harness's onElicitation", () => {
  it("gets the checked form; its answer is checked before it goes back", async () => {
    const p = project();
    const asked: ElicitationRequest[] = [];
    let answer: unknown = { action: "accept", content: { email: "a@b.io", plan: "pro" } };
    const plane = await Toolplane.open({
      cwd: p.repo,
      env: p.bareEnv,
      bundledSkills: null,
      // the harness's model sees the server's tools at once
      set: ["defer.mode=off"],
      onElicitation: (req) => {
        asked.push(req);
        return answer as never;
      },
    });
    try {
      const ok = await plane.call("mcp__forms__ask", {
        message: "Set up your account",
        schema: NEEDS_ANSWER,
      });
      expect(JSON.parse((ok.content[0] as { text: string }).text)).toEqual(answer);
      expect(asked[0]?.server).toBe("forms");
      expect(asked[0]?.fields.map((f) => [f.name, f.type, f.required])).toEqual([
        ["email", "string", true],
        ["plan", "enum", true],
        ["seats", "integer", false],
      ]);
      // an answer that does not fit the form is not sent: the server gets an error instead
      answer = { action: "accept", content: { email: "a@b.io", plan: "gold" } };
      const bad = await plane.call("mcp__forms__ask", { message: "again", schema: NEEDS_ANSWER });
      expect((bad.content[0] as { text: string }).text).toContain(
        'the answer to the elicitation did not fit its form: "plan" must be one of "free", "pro"',
      );
    } finally {
      await plane.close();
    }
  });
});

describe("a server that asks on its standalone stream", () => {
  it("gets its question though the stream's GET reached it after the call", { timeout: 15_000 }, async () => {
    // the GET held 800 ms: the call went out first, and the server's form (sent on the stream,
    // which it drops while none is open) was lost and the call hung until the test's timeout
    const slow = await startElicitingServer({ getDelayMs: 800 });
    const p = tempProject({
      ".toolplane/config.json": JSON.stringify({ mcp: { servers: { forms: { url: slow.url } } } }),
    });
    const plane = await Toolplane.open({
      cwd: p.repo,
      env: p.bareEnv,
      bundledSkills: null,
      set: ["defer.mode=off"],
      onElicitation: () => ({ action: "accept", content: { name: "Ann" } }),
    });
    try {
      const r = await plane.call("mcp__forms__ask", { message: "Who?", schema: DEFAULTS_FORM });
      expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual({
        action: "accept",
        content: { name: "Ann" },
      });
    } finally {
      await plane.close();
      await slow.close();
    }
  });
});
