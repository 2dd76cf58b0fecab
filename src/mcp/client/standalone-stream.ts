import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

/**
 * Whether an HTTP MCP server has taken the client's standalone SSE stream (the GET the SDK's
 * transport sends after initialize, without waiting for it). A server sends a request that belongs
 * to no request of the client's, such as an elicitation its tool makes without naming the call, on
 * that stream, and drops it when the stream is not open yet (the SDK's server does): on a busy
 * machine `tools/call` could reach the server before the GET did, and the server's question was
 * lost, the call hanging until the server gave up on it (the conformance suite's
 * elicitation-sep1034-client-defaults, in loaded runs). A call waits for the GET's answer (its
 * headers, a 405 or a failure), at most `waitMs` after it went out (the server's start timeout:
 * opening the stream is part of starting the session; a server that holds the GET's headers
 * longer is taken to have no stream); tools/list does not wait.
 */
export class StandaloneStream {
  private opened: Promise<void> = Promise.resolve();

  constructor(private readonly waitMs: number) {}

  /** The transport's fetch, noting each GET it sends. */
  watch(base: FetchLike): FetchLike {
    return (input, init) => {
      const response = base(input, init);
      if ((init?.method ?? "GET").toUpperCase() === "GET") {
        const answered = response.then(
          () => undefined,
          () => undefined,
        );
        const late = new Promise<void>((resolve) => setTimeout(resolve, this.waitMs).unref());
        this.opened = Promise.race([answered, late]);
      }
      return response;
    };
  }

  /** Settles once the latest GET has its answer, or has waited waitMs. */
  ready(): Promise<void> {
    return this.opened;
  }
}
