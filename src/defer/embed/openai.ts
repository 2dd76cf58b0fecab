import { OutputTooLargeError, readLimited } from "../../execute/errors.js";
import { type Embedder, EmbedderError, unit } from "./embedder.js";

/** 64 vectors of 8,192 numbers as JSON are ~10 MB: an answer past this is not embeddings. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export interface OpenAiEmbedderOptions {
  /** API base: requests go to `{url}/embeddings`. */
  url: string;
  model: string;
  /** Sent as `Authorization: Bearer KEY` when set (a local server may need none). */
  apiKey?: string;
  /** Per request; default 10 s. */
  timeoutMs?: number;
  /** Texts per request; default 64. */
  batch?: number;
  fetch?: typeof fetch;
}

/**
 * Any endpoint that speaks OpenAI's `POST /embeddings` (OpenAI, vLLM, Ollama, llama.cpp, TEI, ...).
 * Every failure (down, slow, refused, an answer that is not the vectors asked for) is an
 * EmbedderError naming the URL and what to check; a request never outlives its timeout.
 */
export function openAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const url = embeddingsUrl(options.url);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const batch = options.batch ?? 64;
  const closed = new AbortController();
  const request = async (input: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    const signals = [AbortSignal.timeout(timeoutMs), closed.signal, ...(signal ? [signal] : [])];
    let text: string;
    let status: number;
    try {
      const response = await (options.fetch ?? fetch)(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: options.model, input }),
        signal: AbortSignal.any(signals),
      });
      status = response.status;
      // a peer's answer is read only up to what the vectors asked for can take
      const body = response.body as AsyncIterable<Uint8Array> | null;
      text = body ? (await readLimited(body, MAX_ANSWER_BYTES)).toString("utf8") : "";
    } catch (error) {
      if (error instanceof OutputTooLargeError)
        throw new EmbedderError(
          `${url} answered more than ${MAX_ANSWER_BYTES} bytes: check search.embedder.url`,
        );
      const timedOut = (error as Error).name === "TimeoutError";
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new EmbedderError(
        timedOut
          ? `${url} did not answer within ${timeoutMs} ms: check the server, or raise search.embedder.timeoutMs`
          : `cannot reach ${url} (${cause}): check search.embedder.url and that the server runs`,
      );
    }
    if (status < 200 || status >= 300) {
      const hint =
        status === 401 || status === 403
          ? ": set the API key (search.embedder.apiKeyEnv names its variable)"
          : "";
      throw new EmbedderError(`${url} answered ${status}${hint}: ${text.slice(0, 200)}`);
    }
    return readVectors(url, text, input.length);
  };
  return {
    id: `openai:${url}#${options.model}`,
    async embed(texts, signal) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batch)
        out.push(...(await request(texts.slice(i, i + batch), signal)));
      return out;
    },
    async close() {
      closed.abort();
    },
  };
}

function embeddingsUrl(base: string): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new EmbedderError(
      `search.embedder.url "${base}" is not a URL: give the API base, e.g. http://127.0.0.1:8000/v1`,
    );
  }
  return `${url.href.replace(/\/+$/, "")}/embeddings`;
}

/** `data[i].embedding` for each input, by `index` when given; anything else is refused. */
function readVectors(url: string, text: string, count: number): Float32Array[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new EmbedderError(`${url} did not answer JSON: ${text.slice(0, 200)}`);
  }
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data) || data.length !== count)
    throw new EmbedderError(`${url} answered without ${count} embeddings in "data": ${text.slice(0, 200)}`);
  const out: Float32Array[] = new Array(count);
  let dims: number | undefined;
  data.forEach((item, i) => {
    const vector = (item as { embedding?: unknown })?.embedding;
    const at =
      typeof (item as { index?: unknown })?.index === "number" ? (item as { index: number }).index : i;
    const ok =
      Array.isArray(vector) &&
      vector.length > 0 &&
      (dims === undefined || vector.length === dims) &&
      vector.every((v) => typeof v === "number" && Number.isFinite(v)) &&
      Number.isInteger(at) &&
      at >= 0 &&
      at < count &&
      out[at] === undefined;
    if (!ok)
      throw new EmbedderError(`${url} answered an embedding that is not a list of numbers (item ${i})`);
    dims = (vector as number[]).length;
    out[at] = unit(vector as number[]);
  });
  return out;
}
