// Fakes of the providers' HTTP APIs for tests that run the provider SDKs' own request code: a fetch
// that records each request body, and a loopback Responses API server.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
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
  const { server, port } = await loopback((raw, _req, res) => {
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
  return { bodies, server, baseURL: `http://127.0.0.1:${port}/v1` };
}

/** One scripted Anthropic Messages reply: content blocks (text or tool_use) and the stop reason. */
export interface MessagesReply {
  content: Array<
    { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: object }
  >;
  stop: "end_turn" | "tool_use";
}

/**
 * A loopback Anthropic Messages API (POST /v1/messages, streamed as server-sent events when the
 * request asks): records each request body and answers with `reply(body)`. Other paths get `{}`.
 */
export async function messagesServer(reply: (body: Record<string, unknown>) => MessagesReply) {
  const bodies: Array<Record<string, unknown>> = [];
  const { server, port } = await loopback((raw, req, res) => {
    if (req.method !== "POST" || (!req.url?.startsWith("/v1/messages?") && req.url !== "/v1/messages")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
      return;
    }
    const body = JSON.parse(raw) as Record<string, unknown>;
    bodies.push(body);
    const { content, stop } = reply(body);
    const id = `msg_${bodies.length}`;
    const usage = { input_tokens: 10, output_tokens: 5 };
    if (body.stream !== true) {
      res.writeHead(200, { "content-type": "application/json" });
      const message = { id, type: "message", role: "assistant", model: body.model, content };
      res.end(JSON.stringify({ ...message, stop_reason: stop, stop_sequence: null, usage }));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    const send = (type: string, data: object) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send("message_start", {
      message: { id, type: "message", role: "assistant", model: body.model, content: [], usage },
    });
    content.forEach((block, index) => {
      if (block.type === "text") {
        send("content_block_start", { index, content_block: { type: "text", text: "" } });
        send("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
      } else {
        const start = { type: "tool_use", id: block.id, name: block.name, input: {} };
        send("content_block_start", { index, content_block: start });
        const delta = { type: "input_json_delta", partial_json: JSON.stringify(block.input) };
        send("content_block_delta", { index, delta });
      }
      send("content_block_stop", { index });
    });
    send("message_delta", {
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: 5 },
    });
    send("message_stop", {});
    res.end();
  });
  return { bodies, server, baseURL: `http://127.0.0.1:${port}` };
}

/** A listening loopback server that hands each request's whole body to `answer`. */
async function loopback(answer: (raw: string, req: IncomingMessage, res: ServerResponse) => void) {
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => answer(raw, req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}
