// A model on loopback that speaks a provider's wire API (Anthropic Messages, OpenAI Responses),
// non-streaming, with scripted turns: the official SDKs (and the AI SDK, the Agents SDK) talk to
// it as to the real service, and the test reads every request they sent.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the model got: its path and JSON body. */
export interface SeenRequest {
  path: string;
  // biome-ignore lint/suspicious/noExplicitAny: a provider's request body, read by the test as JSON
  body: any;
}

/** A scripted turn: what the model does given the request (and how many came before it). */
export type Turn = (request: SeenRequest, index: number) => object;

export interface WireModel {
  /** The base URL OpenAI's SDKs take (`.../v1`). */
  url: string;
  /** The base URL Anthropic's SDK takes (it adds `/v1/messages`). */
  origin: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function wireModel(turn: Turn): Promise<WireModel> {
  const requests: SeenRequest[] = [];
  const server = createServer(async (req, res) => {
    const text = await bodyOf(req);
    const seen: SeenRequest = { path: req.url ?? "", body: text === "" ? undefined : JSON.parse(text) };
    requests.push(seen);
    let answer: object;
    try {
      answer = turn(seen, requests.length - 1);
    } catch (error) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: (error as Error).message } }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An Anthropic Messages API response with these content blocks. */
export function anthropicMessage(content: object[], stop: "tool_use" | "end_turn"): object {
  return {
    id: `msg_${Math.random().toString(36).slice(2)}`,
    type: "message",
    role: "assistant",
    model: "claude-scripted",
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

/** An OpenAI Responses API response with these output items. */
export function openaiResponse(output: object[]): object {
  return {
    id: `resp_${Math.random().toString(36).slice(2)}`,
    object: "response",
    created_at: 1_700_000_000,
    status: "completed",
    model: "gpt-scripted",
    output,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
  };
}

/** A Responses `function_call` output item. */
export function functionCall(callId: string, name: string, args: object): object {
  return {
    type: "function_call",
    id: `fc_${callId}`,
    call_id: callId,
    name,
    arguments: JSON.stringify(args),
    status: "completed",
  };
}

/** A Responses assistant message output item. */
export function outputMessage(text: string): object {
  return {
    type: "message",
    id: `msg_${Math.random().toString(36).slice(2)}`,
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text, annotations: [] }],
  };
}

/**
 * The two items OpenAI's hosted tool search adds to a response when it loads deferred tools on
 * the server: the search call and its output listing the loaded function tools.
 */
export function hostedSearch(query: string, tools: string[]): object[] {
  return [
    { type: "tool_search_call", id: "tsc_1", status: "completed", execution: "server", arguments: { query } },
    {
      type: "tool_search_output",
      id: "tso_1",
      status: "completed",
      execution: "server",
      tools: tools.map((name) => ({ type: "function", name, parameters: { type: "object" }, strict: false })),
    },
  ];
}
