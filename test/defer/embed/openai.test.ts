import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmbedderError } from "../../../src/defer/embed/embedder.js";
import { openAiEmbedder } from "../../../src/defer/embed/openai.js";

/** A loopback /embeddings endpoint whose answer each test chooses by the model name. */
let server: Server;
let base: string;
const seen: Array<{ auth?: string; body: { model: string; input: string[] } }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => {
      text += c;
    });
    req.on("end", () => {
      const body = JSON.parse(text) as { model: string; input: string[] };
      seen.push({ ...(req.headers.authorization ? { auth: req.headers.authorization } : {}), body });
      const vectors = body.input.map((t, i) => ({ index: i, embedding: [t.length, 1, 0] }));
      if (body.model === "slow") return; // never answers
      if (body.model === "huge") return res.writeHead(200).end(Buffer.alloc(33 * 1024 * 1024, 32));
      if (body.model === "refuse") return res.writeHead(401).end("bad key");
      if (body.model === "garbage") return res.writeHead(200).end("<html>");
      if (body.model === "short") return res.writeHead(200).end(JSON.stringify({ data: vectors.slice(1) }));
      if (body.model === "reversed")
        return res.writeHead(200).end(JSON.stringify({ data: [...vectors].reverse() }));
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data: vectors }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("the OpenAI-compatible embedder against a loopback server", () => {
  it("sends the model, the texts and the key; returns unit vectors in input order, batch by batch", async () => {
    const e = openAiEmbedder({ url: base, model: "m", apiKey: "sk-test", batch: 2 });
    const out = await e.embed(["a", "bbb", "cc"]);
    expect(out.map((v) => Array.from(v).map((x) => Math.round(x * 1000) / 1000))).toEqual([
      [0.707, 0.707, 0],
      [0.949, 0.316, 0],
      [0.894, 0.447, 0],
    ]);
    expect(seen.slice(-2).map((s) => s.body.input)).toEqual([["a", "bbb"], ["cc"]]);
    expect(seen.at(-1)?.auth).toBe("Bearer sk-test");
    const back = await openAiEmbedder({ url: base, model: "reversed" }).embed(["a", "bbb"]);
    expect(back[0]![0]).toBeLessThan(back[1]![0]!);
  });

  it("each failure is an EmbedderError that says what to check, and none hangs", async () => {
    const fail = (model: string, url = base, timeoutMs = 300) =>
      openAiEmbedder({ url, model, timeoutMs }).embed(["x", "y"]);
    await expect(fail("slow")).rejects.toThrow(
      /did not answer within 300 ms: check the server, or raise search.embedder.timeoutMs/,
    );
    await expect(fail("refuse")).rejects.toThrow(/answered 401: set the API key \(search.embedder.apiKeyEnv/);
    await expect(fail("garbage")).rejects.toThrow(/did not answer JSON/);
    await expect(fail("short")).rejects.toThrow(/without 2 embeddings/);
    await expect(fail("huge", base, 10_000)).rejects.toThrow(/answered more than 33554432 bytes/);
    await expect(fail("m", "http://127.0.0.1:9/v1")).rejects.toThrow(
      /cannot reach .* check search.embedder.url/,
    );
    await expect(fail("slow")).rejects.toBeInstanceOf(EmbedderError);
    expect(() => openAiEmbedder({ url: "not a url", model: "m" })).toThrow(/is not a URL/);
  });

  it("close() aborts a request in flight", async () => {
    const e = openAiEmbedder({ url: base, model: "slow", timeoutMs: 60_000 });
    const pending = e.embed(["x"]);
    await e.close();
    await expect(pending).rejects.toThrow(EmbedderError);
  });
});
