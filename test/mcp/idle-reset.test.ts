// An HTTP MCP server's fetch sends a request once more only when the server dropped an idle
// connection with the request unread (src/mcp/client/idle-reset.ts).
import { describe, expect, it, vi } from "vitest";
import { retryIdleReset } from "../../src/mcp/client/idle-reset.js";

const failure = (code: string) =>
  Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error(code), { code }) });

/** A fetch that answers, then fails the next request with `code` once, then answers again. */
function flaky(code: string) {
  let calls = 0;
  const base = vi.fn(async () => {
    calls++;
    if (calls === 2) throw failure(code);
    return new Response("{}");
  });
  return base;
}

describe("retryIdleReset", () => {
  it("sends again, once, a request the server reset after it had been quiet", async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const base = flaky("ECONNRESET");
      const f = retryIdleReset(base);
      await f("http://s/mcp", { method: "POST", body: "1" });
      vi.setSystemTime(6_000);
      await expect(f("http://s/mcp", { method: "POST", body: "2" })).resolves.toBeInstanceOf(Response);
      expect(base).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("leaves every other failure as it is", async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      // busy server: the reset came within a second of its last answer
      const busy = flaky("ECONNRESET");
      const g = retryIdleReset(busy);
      await g("http://s/mcp", { method: "POST" });
      vi.setSystemTime(500);
      await expect(g("http://s/mcp", { method: "POST" })).rejects.toThrow("fetch failed");
      expect(busy).toHaveBeenCalledTimes(2);
      // the other side closed after the request may have been read: never sent twice
      const closed = flaky("UND_ERR_SOCKET");
      const f = retryIdleReset(closed);
      await f("http://s/mcp", { method: "POST" });
      vi.setSystemTime(7_000);
      await expect(f("http://s/mcp", { method: "POST" })).rejects.toThrow("fetch failed");
      expect(closed).toHaveBeenCalledTimes(2);
      // the first request of a connection was never on a reused socket
      const first = vi.fn(async () => {
        throw failure("ECONNRESET");
      });
      await expect(retryIdleReset(first)("http://s/mcp", { method: "POST" })).rejects.toThrow("fetch failed");
      expect(first).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
