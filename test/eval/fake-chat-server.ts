import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  url: string;
  authorization: string | undefined;
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    tools: Array<{ type: string; function: { name: string; description: string; parameters: unknown } }>;
    tool_choice?: string;
  };
}

/**
 * A Chat Completions stand-in on 127.0.0.1: `decide` picks the tools to call for a request (by
 * its user message), and every request is kept for the test to check.
 */
export async function fakeChatServer(decide: (req: SeenRequest) => string[] | { status: number }) {
  const seen: SeenRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req));
    const request: SeenRequest = { url: req.url ?? "", authorization: req.headers.authorization, body };
    seen.push(request);
    const answer = decide(request);
    if (!Array.isArray(answer)) {
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "refused by the fake" } }));
      return;
    }
    const tool_calls = answer.map((name, i) => ({
      id: `call_${i}`,
      type: "function",
      function: { name, arguments: "{}" },
    }));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "chatcmpl-fake",
        object: "chat.completion",
        model: body.model,
        choices: [
          {
            index: 0,
            finish_reason: tool_calls.length > 0 ? "tool_calls" : "stop",
            message: {
              role: "assistant",
              content: tool_calls.length > 0 ? null : "I can't do that with these tools.",
              ...(tool_calls.length > 0 ? { tool_calls } : {}),
            },
          },
        ],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
