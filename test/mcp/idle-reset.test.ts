// An HTTP MCP server's fetch sends a request once more only when the kept-alive connection it went
// out on was closed while idle (src/mcp/client/idle-reset.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { retryIdleReset } from "../../src/mcp/client/idle-reset.js";

const failure = (code: string) =>
  Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error(code), { code }) });

/** A fetch that answers, then fails the next request with `code` (after `takesMs`) once, then answers. */
function flaky(code: string, takesMs = 0) {
  let calls = 0;
  return vi.fn(async () => {
    calls++;
    if (calls === 2) {
      vi.setSystemTime(Date.now() + takesMs);
      throw failure(code);
    }
    return new Response("{}");
  });
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("retryIdleReset", () => {
  it("sends again, once, a request whose idle connection the server had closed", async () => {
    for (const code of ["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]) {
      const base = flaky(code);
      const f = retryIdleReset(base);
      await f("http://s/mcp", { method: "POST", body: "1" });
      vi.setSystemTime(Date.now() + 6_000);
      await expect(f("http://s/mcp", { method: "POST", body: "2" })).resolves.toBeInstanceOf(Response);
      expect(base).toHaveBeenCalledTimes(3);
    }
  });

  it("leaves every other failure as it is", async () => {
    const expectOnce = async (base: ReturnType<typeof flaky>, quietMs: number) => {
      const f = retryIdleReset(base);
      await f("http://s/mcp", { method: "POST" });
      vi.setSystemTime(Date.now() + quietMs);
      await expect(f("http://s/mcp", { method: "POST" })).rejects.toThrow("fetch failed");
      expect(base).toHaveBeenCalledTimes(2);
    };
    // the server had answered within the second: its connection was not idle
    await expectOnce(flaky("ECONNRESET"), 500);
    // closed long after the request went out: the server (or a proxy) was working on it
    await expectOnce(flaky("UND_ERR_SOCKET", 30_000), 6_000);
    // not a closed connection
    await expectOnce(flaky("ECONNREFUSED"), 6_000);
    // the first request of a connection was never on a reused one
    const first = vi.fn(async () => {
      throw failure("ECONNRESET");
    });
    await expect(retryIdleReset(first)("http://s/mcp", { method: "POST" })).rejects.toThrow("fetch failed");
    expect(first).toHaveBeenCalledTimes(1);
  });
});
