import type { Catalog } from "../render/index.js";
import { attachmentsText, restoreCall } from "../render/index.js";

/** An endpoint that speaks OpenAI Chat Completions (OpenAI, vLLM, Ollama, llama.cpp, ...). */
export interface ChatEndpoint {
  /** Base URL; requests go to `{url}/chat/completions`. */
  url: string;
  model: string;
  /** Sent as `Authorization: Bearer KEY` when set (local servers often need none). */
  apiKey?: string;
  /** Per request (default 60 s). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** A refused or unreadable answer from the endpoint: the run cannot say anything about selection. */
export class EndpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EndpointError";
  }
}

export function completionsUrl(base: string): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new EndpointError(
      `--endpoint "${base}" is not a URL: give the API base, e.g. http://127.0.0.1:8000/v1`,
    );
  }
  return `${url.href.replace(/\/+$/, "")}/chat/completions`;
}

/**
 * Asks the model one task with the catalog as its tools and returns the tools it called, under
 * their toolplane names. The catalog's system text as the system message when there is any, its
 * attachments (skills, deferred names, MCP instructions) as a user message, then the task, with
 * `tool_choice: "auto"`: what a harness would send.
 */
export async function toolsChosen(endpoint: ChatEndpoint, catalog: Catalog, task: string): Promise<string[]> {
  const messages: Array<{ role: string; content: string }> = [];
  if (catalog.system !== "") messages.push({ role: "system", content: catalog.system });
  const attached = attachmentsText(catalog.attachments);
  if (attached !== "") messages.push({ role: "user", content: attached });
  messages.push({ role: "user", content: task });
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  const url = completionsUrl(endpoint.url);
  let response: Response;
  try {
    response = await (endpoint.fetch ?? fetch)(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ model: endpoint.model, messages, tools: catalog.tools, tool_choice: "auto" }),
      signal: AbortSignal.timeout(endpoint.timeoutMs ?? 60_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new EndpointError(`cannot reach ${url} (${cause}): check --endpoint and that the server runs`);
  }
  const text = await response.text();
  if (!response.ok) {
    const hint =
      response.status === 401 || response.status === 403
        ? ": set TOOLPLANE_EVAL_API_KEY (or OPENAI_API_KEY) to a valid key"
        : "";
    throw new EndpointError(`${url} answered ${response.status}${hint}: ${text.slice(0, 200)}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new EndpointError(`${url} did not answer JSON: ${text.slice(0, 200)}`);
  }
  const message = (body as { choices?: Array<{ message?: { tool_calls?: unknown } }> }).choices?.[0]?.message;
  if (!message) throw new EndpointError(`${url} answered without choices[0].message: ${text.slice(0, 200)}`);
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  return calls
    .map((c) => (c as { function?: { name?: unknown } }).function?.name)
    .filter((n): n is string => typeof n === "string")
    .map((wire) => restoreCall(catalog, wire, {}).name);
}
