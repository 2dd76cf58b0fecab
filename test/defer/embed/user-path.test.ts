import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolSearchResult } from "../../../src/defer/tool-search.js";
import { Toolplane } from "../../../src/index.js";
import { searchView } from "../../../src/inspect/views.js";
import { CLI, runCli } from "../../helpers/cli.js";
import { tempProject } from "../../helpers/tmp.js";

// search.embedder through the host's tool_search and through `toolplane search` (CLI, built),
// against a loopback /embeddings endpoint whose vectors follow topic words.
const AXES = [/file|name|glob|pattern|match/gi, /content|line|text|regex|search/gi, /edit|replace|write/gi];
let server: Server;
let url: string;
const inputs: string[][] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => {
      text += c;
    });
    req.on("end", () => {
      const { input } = JSON.parse(text) as { input: string[] };
      inputs.push(input);
      const data = input.map((t, index) => ({
        index,
        embedding: AXES.map((a) => (t.match(a)?.length ?? 0) + 0.01),
      }));
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** The CLI without blocking this process, which serves the endpoint (runCli would stall it). */
function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ["ignore", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.on("data", (c) => {
      stdout += c;
    });
    child.on("close", (code) => resolve({ code, stdout }));
  });
}

const DEFER = `defer.tools=${JSON.stringify({ glob: "always", grep: "always", edit: "always", write: "always" })}`;
const embedder = (u: string) =>
  `search.embedder=${JSON.stringify({ kind: "openai", url: u, model: "topics", timeoutMs: 2000 })}`;

describe("search.embedder on the user's path", () => {
  it("the host's tool_search reranks once the vectors are in, and answers lexically when the endpoint is down", async () => {
    const p = tempProject({ "a.txt": "x\n" });
    const env = { ...p.env, TOOLPLANE_CACHE_DIR: `${p.root}/cache` };
    const plane = await Toolplane.open({ cwd: p.repo, env, set: [DEFER, embedder(url)] });
    try {
      await plane.catalog("anthropic");
      await plane.deferral.session.semantic?.settled();
      // the inspector's search over the deferred tools ranks as tool_search does (loading nothing)
      const view = await searchView(plane, { query: "replace text in a file" });
      expect(view.ranking?.kind).toBe("hybrid");
      expect(view.results[0]?.name).toBe("edit");
      const before = inputs.length;
      const r = await plane.call("tool_search", { query: "find files whose name matches a pattern" });
      expect(r.isError).toBe(false);
      // the query was embedded: the search was hybrid
      expect(inputs.slice(before)).toEqual([["find files whose name matches a pattern"]]);
      expect(JSON.stringify(r.content)).toContain("glob");
      // the value says how it was ranked (the model's text is the same list, in that order)
      expect((r.value as ToolSearchResult).ranking).toEqual({
        kind: "hybrid",
        vectors: { ready: expect.any(Number), total: expect.any(Number) },
      });
    } finally {
      await plane.close();
    }
    const down = await Toolplane.open({ cwd: p.repo, env, set: [DEFER, embedder("http://127.0.0.1:9/v1")] });
    try {
      await down.catalog("anthropic");
      const t0 = Date.now();
      const r = await down.call("tool_search", { query: "search file contents for a regex" });
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(r.isError).toBe(false);
      expect(JSON.stringify(r.content)).toContain("grep");
      const ranking = (r.value as ToolSearchResult).ranking;
      expect(ranking?.kind).toBe("lexical");
      expect(ranking?.reason).toMatch(/not ready yet|the embedder failed/);
    } finally {
      await down.close();
    }
    // off (the default): the value is today's, with no ranking in it
    const off = await Toolplane.open({ cwd: p.repo, env, set: [DEFER] });
    try {
      await off.catalog("anthropic");
      const r = await off.call("tool_search", { query: "search file contents for a regex" });
      expect(r.isError).toBe(false);
      expect(Object.keys(r.value as object).sort()).toEqual(["loaded", "mode", "results", "searched"]);
    } finally {
      await off.close();
    }
  });

  it("toolplane serve: tool_search's structuredContent says how it ranked, hybrid once the vectors are in", async () => {
    const p = tempProject({ "a.txt": "x\n" });
    const env = { ...p.env, TOOLPLANE_CACHE_DIR: `${p.root}/cache` };
    const client = new Client({ name: "embed", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "serve", "--cwd", p.repo, "--set", DEFER, "--set", embedder(url)],
        env: env as Record<string, string>,
        stderr: "pipe",
      }),
    );
    try {
      // the server never waits for the vectors: lexical with the reason until they are in
      let ranking: { kind?: string; reason?: string } | undefined;
      for (let i = 0; i < 100 && ranking?.kind !== "hybrid"; i++) {
        const r = await client.callTool({
          name: "tool_search",
          arguments: { query: "replace text in a file" },
        });
        expect(r.isError).toBeFalsy();
        ranking = (r.structuredContent as { ranking?: typeof ranking }).ranking;
        expect(ranking?.kind === "hybrid" || /not ready yet/.test(ranking?.reason ?? "")).toBe(true);
        if (ranking?.kind !== "hybrid") await new Promise((res) => setTimeout(res, 100));
      }
      expect(ranking?.kind).toBe("hybrid");
    } finally {
      await client.close();
    }
  }, 30_000);

  it("toolplane search reports its ranking: hybrid from the endpoint, lexical with the reason when it is down", async () => {
    const p = tempProject({ "a.txt": "x\n" });
    const env = { ...p.env, TOOLPLANE_CACHE_DIR: `${p.root}/cache` };
    const args = ["search", "replace text in a file", "--json", "--cwd", p.repo];
    const ok = await cli([...args, "--set", embedder(url)], env);
    expect(ok.code).toBe(0);
    const hybrid = JSON.parse(ok.stdout);
    expect(hybrid.ranking).toMatchObject({ kind: "hybrid" });
    expect(hybrid.results[0].name).toBe("edit");
    const down = await cli([...args, "--set", embedder("http://127.0.0.1:9/v1")], env);
    expect(down.code).toBe(0);
    const lexical = JSON.parse(down.stdout);
    expect(lexical.ranking.kind).toBe("lexical");
    expect(lexical.ranking.reason).toMatch(/the embedder failed: cannot reach/);
    const plain = JSON.parse(runCli(args, { env }).stdout);
    expect(plain.ranking).toBeUndefined();
    expect(lexical.results).toEqual(plain.results);
  });

  it("an untrusted project cannot turn the embedder on", () => {
    const p = tempProject({
      ".toolplane/config.json": JSON.stringify({ search: { embedder: { kind: "openai", url, model: "x" } } }),
    });
    const r = runCli(["search", "edit", "--json", "--cwd", p.repo], { env: p.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).ranking).toBeUndefined();
  });
});
