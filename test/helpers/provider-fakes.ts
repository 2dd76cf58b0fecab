// Fakes of the providers' HTTP APIs for tests that run the provider SDKs' own request code: a fetch
// that records each request body, and a loopback Responses API server.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A fetch that records each JSON request body and answers with the next scripted JSON response. */
export function recordingFetch(responses: unknown[]) {
  const bodies: Array<Record<string, unknown>> = [];
  const fetch = async (_url: unknown, init?: { body?: unknown }) => {
    bodies.push(JSON.parse(String(init?.body)));
    const next = responses[bodies.length - 1];
    if (next === undefined) throw new Error(`unscripted request ${bodies.length}`);
    return new Response(JSON.stringify(next), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
  return { bodies, fetch: fetch as unknown as typeof globalThis.fetch };
}

/** A loopback Responses API: records each request body and answers with the next scripted output. */
export async function responsesServer(outputs: unknown[][]) {
  const bodies: Array<Record<string, unknown>> = [];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      bodies.push(JSON.parse(raw));
      const output = outputs[bodies.length - 1] ?? [];
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: `resp_${bodies.length}`,
          object: "response",
          created_at: bodies.length,
          model: "gpt-test",
          status: "completed",
          output,
          usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { bodies, server, baseURL: `http://127.0.0.1:${port}/v1` };
}
