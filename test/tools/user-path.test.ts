import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { generateText, stepCountIs } from "ai";
import fc from "fast-check";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { aiSdkTools } from "../../src/adapters/ai-sdk.js";
import { Toolplane } from "../../src/assemble/index.js";
import { CLI, ROOT } from "../helpers/cli.js";
import {
  fileBytes,
  fileLines,
  followPages,
  footerOffset,
  type PageLimits,
  resultText,
  textFileArb,
} from "../helpers/paging.js";
import { scriptedModel } from "../helpers/scripted-model.js";
import { tempProject } from "../helpers/tmp.js";

// read, grep and glob the way a user's harness reaches them: `toolplane serve` driven by the MCP
// SDK client over stdio, and the AI SDK adapter driven by a (scripted) model. Paging must agree
// with the file, a denied file stays out, a missing path is an error result, and the server keeps
// answering after each of them.

const FILES = {
  "notes.txt": "TOPSECRET appears in the notes\nsecond line\n",
  "secrets/k": "TOPSECRET key material\n",
  ".env": "TOPSECRET=from-env\n",
};
const DENY = 'permissions.rules=[{"effect":"deny","path":"secrets/**"}]';
const LIB = readFileSync(path.join(ROOT, "node_modules", "typescript", "lib", "lib.es5.d.ts"));

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function serve(p: ReturnType<typeof tempProject>, set: string[]) {
  const client = new Client({ name: "user-path", version: "1" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve", "--cwd", p.repo, ...set.flatMap((s) => ["--set", s])],
    env: p.env as Record<string, string>,
    stderr: "pipe",
  });
  await client.connect(transport);
  closers.push(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    return { text: resultText(r), isError: r.isError === true };
  };
  return { client, call };
}

describe("toolplane serve, driven by the MCP SDK client over stdio", () => {
  const p = tempProject({ ...FILES, "lib.es5.d.ts": LIB });
  let server: Awaited<ReturnType<typeof serve>>;
  let small: Awaited<ReturnType<typeof serve>>;
  const smallLimits: PageLimits = { inlineMaxBytes: 3000, lineMaxChars: 300 };

  it("starts two servers: default limits, and small ones", async () => {
    server = await serve(p, [DENY]);
    small = await serve(p, [
      `results.inlineMaxBytes=${smallLimits.inlineMaxBytes}`,
      `results.lineMaxChars=${smallLimits.lineMaxChars}`,
    ]);
    expect((await server.client.listTools()).tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["read", "grep", "glob"]),
    );
  });

  it("paging a real file by the offsets the text gives shows every line once", async () => {
    for (const [s, limits] of [
      [server, { inlineMaxBytes: 51_200, lineMaxChars: 2000 }],
      [small, smallLimits],
    ] as const) {
      await followPages(fileLines(LIB), limits, async (offset) => {
        const r = await s.call("read", { path: "lib.es5.d.ts", offset });
        return { ...r, nextOffset: footerOffset(r.text) };
      });
    }
  });

  it("property: random files page exactly through the server", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(textFileArb, async (f) => {
        const name = `prop-${n++}.txt`;
        const bytes = fileBytes(f);
        writeFileSync(path.join(p.repo, name), bytes);
        await followPages(fileLines(bytes), smallLimits, async (offset) => {
          const r = await small.call("read", { path: name, offset });
          return { ...r, nextOffset: footerOffset(r.text) };
        });
      }),
      { numRuns: 25 },
    );
  });

  it("a denied file and an unapproved .env stay out of grep and glob, with a count", async () => {
    const read = await server.call("read", { path: "secrets/k" });
    expect(read.isError).toBe(true);
    expect(read.text).not.toContain("key material");
    const grep = await server.call("grep", { pattern: "TOPSECRET", output_mode: "content" });
    expect(grep.isError).toBe(false);
    expect(grep.text).toContain("notes.txt\n1: TOPSECRET appears in the notes");
    expect(grep.text).not.toMatch(/key material|from-env|secrets\/|\.env/);
    expect(grep.text).toContain("withheld by permissions: 1 denied, 1 needing approval that was not given");
    const glob = await server.call("glob", { pattern: "*" });
    expect(glob.text).not.toMatch(/secrets|\.env/);
  });

  it("a missing path is an error result for each tool, and the server still answers", async () => {
    for (const [tool, args] of [
      ["read", { path: "nope" }],
      ["grep", { pattern: "x", path: "nope" }],
      ["glob", { pattern: "*", path: "nope" }],
    ] as const) {
      const r = await server.call(tool, args);
      expect(r.isError, tool).toBe(true);
      expect(r.text).toContain("nope does not exist: check the path");
    }
    const after = await server.call("read", { path: "notes.txt" });
    expect(after.text).toContain("1\tTOPSECRET appears in the notes");
    expect((await server.client.listTools()).tools.length).toBeGreaterThan(0);
  });
});

/** A model that makes the calls `next` gives, one per step, seeing each result's text. */
function agent(
  next: (seen: string | undefined, step: number) => { tool: string; input: object } | undefined,
) {
  return scriptedModel((out, step) =>
    next(
      out === undefined ? undefined : `${out.type === "error-text" ? "ERROR " : ""}${String(out.value)}`,
      step,
    ),
  );
}

describe("the AI SDK adapter, driven by a model", () => {
  const planes: Toolplane[] = [];
  afterEach(async () => {
    for (const plane of planes.splice(0)) await plane.close();
  });
  async function open(set: string[]) {
    const p = tempProject({ ...FILES, "lib.es5.d.ts": LIB });
    const plane = await Toolplane.open({ cwd: p.repo, env: p.env, set, bundledSkills: null });
    planes.push(plane);
    return { plane, p };
  }

  it("the model pages through a file by the offsets it is shown and sees every line once", async () => {
    const { plane } = await open(["results.inlineMaxBytes=6000", "results.lineMaxChars=400"]);
    const seen: string[] = [];
    const model = agent((text, step) => {
      if (text !== undefined) seen.push(text);
      if (step === 0) return { tool: "read", input: { path: "lib.es5.d.ts", offset: 1 } };
      const offset = footerOffset(text ?? "");
      return offset === undefined ? undefined : { tool: "read", input: { path: "lib.es5.d.ts", offset } };
    });
    await generateText({
      model,
      tools: await aiSdkTools(plane),
      prompt: "read it all",
      stopWhen: stepCountIs(400),
    });
    let i = 0;
    await followPages(fileLines(LIB), { inlineMaxBytes: 6000, lineMaxChars: 400 }, async () => {
      const text = seen[i++]!;
      return { text, nextOffset: footerOffset(text) };
    });
    expect(i).toBe(seen.length);
  });

  it("a denied file, a missing path, then an ordinary call: each answered", async () => {
    const { plane } = await open([DENY]);
    const calls = [
      { tool: "read", input: { path: "secrets/k" } },
      { tool: "grep", input: { pattern: "TOPSECRET" } },
      { tool: "glob", input: { pattern: "*", path: "nope" } },
      { tool: "grep", input: { pattern: "x", path: "nope" } },
      { tool: "read", input: { path: "notes.txt" } },
    ];
    const seen: string[] = [];
    const model = agent((text, step) => {
      if (text !== undefined) seen.push(text);
      return calls[step];
    });
    await generateText({
      model,
      tools: await aiSdkTools(plane),
      prompt: "look around",
      stopWhen: stepCountIs(10),
    });
    expect(seen).toHaveLength(5);
    expect(seen[0]).toMatch(/^ERROR read \(read\) denied for path "secrets\/k"/);
    expect(seen[1]).not.toMatch(/key material|from-env/);
    expect(seen[1]).toContain(
      "(2 files withheld by permissions: 1 denied, 1 needing approval that was not given)",
    );
    expect(seen[2]).toMatch(/^ERROR glob failed: nope does not exist: check the path/);
    expect(seen[3]).toMatch(/^ERROR grep failed: nope does not exist: check the path/);
    expect(seen[4]).toContain("1\tTOPSECRET appears in the notes");
  });
});
