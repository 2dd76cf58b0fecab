import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

/** A connection quiet this long may have been closed by the server's keep-alive timeout. */
const IDLE_MS = 1_000;
/** The close of an idle connection meets the request as it goes out, not after the server worked on it. */
const PROMPT_MS = 3_000;
/** The connection ended before any answer: reset, broken pipe, or closed ("other side closed"). */
const CLOSED_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]);

/**
 * One HTTP MCP server's fetch, sending a request once more when the kept-alive connection it went
 * out on turns out to have been closed while idle. fetch keeps connections alive between requests;
 * a server closes one that stayed idle past its keep-alive timeout (Node's default is 5 s), and a
 * request written as that close arrives fails with "fetch failed" (ECONNRESET, or "other side
 * closed"). fetch sends an idempotent method again by itself, a POST never: a busy client, whose
 * event loop ran late by seconds, lost every `tools/call` that followed a slow `tools/list`.
 *
 * The rule is Chromium's for a reused connection that closes before any response (it resends
 * POSTs too): here, a request sent after the server had been quiet for IDLE_MS, that failed with
 * a closed connection within PROMPT_MS, is sent once more, on a new connection. A request the
 * server was working on (a close long after it went out, as a proxy's timeout) stays an error.
 */
export function retryIdleReset(base: FetchLike): FetchLike {
  // when the last answer came: undefined before the first, which went out on no reused connection
  let lastHeard: number | undefined;
  return async (input, init) => {
    const sent = Date.now();
    const quiet = lastHeard !== undefined && sent - lastHeard >= IDLE_MS;
    try {
      const response = await base(input, init);
      lastHeard = Date.now();
      return response;
    } catch (error) {
      if (!quiet || Date.now() - sent > PROMPT_MS || !isClosed(error) || init?.signal?.aborted) throw error;
      const response = await base(input, init);
      lastHeard = Date.now();
      return response;
    }
  };
}

function isClosed(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return error instanceof TypeError && typeof cause?.code === "string" && CLOSED_CODES.has(cause.code);
}
