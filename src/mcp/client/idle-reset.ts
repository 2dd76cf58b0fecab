import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

/** A connection quiet this long may have been closed by the server's keep-alive timeout. */
const IDLE_MS = 1_000;
/**
 * The server dropped the connection with the request unread: a socket closed with data still in
 * it is reset (ECONNRESET), a write after the close breaks the pipe (EPIPE). Not "other side
 * closed" (UND_ERR_SOCKET): that server may have read the request, and run it.
 */
const RESET_CODES = new Set(["ECONNRESET", "EPIPE"]);

/**
 * One HTTP MCP server's fetch, sending a request once more when the connection it went out on
 * turns out to have been closed while idle. fetch keeps connections alive between requests; a
 * server closes one that stayed idle past its keep-alive timeout (Node's default is 5 s), and a
 * request written as that close arrives fails with "fetch failed (read ECONNRESET)". fetch sends
 * an idempotent method again by itself, a POST never. A busy client (its event loop late by
 * seconds) met this on every `tools/call` that followed a `tools/list` after more than 5 s.
 *
 * Only a reset (RESET_CODES) of a request sent after the server had been quiet for IDLE_MS is sent
 * again, once, on a new connection: the server closed an idle connection with the request unread
 * (RFC 9112 section 9.3.1 lets a client retry a request it knows was never applied). Any other
 * failure, or a reset while the server works on fresh requests, stays an error.
 */
export function retryIdleReset(base: FetchLike): FetchLike {
  // when the last answer came: undefined before the first, which went out on no reused connection
  let lastHeard: number | undefined;
  return async (input, init) => {
    const quiet = lastHeard !== undefined && Date.now() - lastHeard >= IDLE_MS;
    try {
      const response = await base(input, init);
      lastHeard = Date.now();
      return response;
    } catch (error) {
      if (!quiet || !isReset(error) || init?.signal?.aborted) throw error;
      const response = await base(input, init);
      lastHeard = Date.now();
      return response;
    }
  };
}

function isReset(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return error instanceof TypeError && typeof cause?.code === "string" && RESET_CODES.has(cause.code);
}
