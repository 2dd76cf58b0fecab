// The fetch an HTTP MCP connection uses (src/mcp/client/oauth/session.ts), in process: which
// requests carry the stored token, and what a refusal that no login can fix does.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OAuthSession } from "../../src/mcp/client/oauth/session.js";
import { tempDir } from "../helpers/tmp.js";

const URL_A = "https://mcp.example.com/mcp";

function session() {
  const s = new OAuthSession({
    server: "work",
    url: URL_A,
    dir: path.join(tempDir("tp-logins-"), "mcp-oauth"),
  });
  s.provider.store.update((login) => {
    login.tokens = { access_token: "at-secret", token_type: "bearer", scope: "read" };
  });
  return s;
}

/** A fetch that records the Authorization header of each request and answers `status`. */
function recording(status: number, headers: Record<string, string> = {}) {
  const seen: Array<[string, string | null]> = [];
  const fetch = async (url: string | URL, init?: RequestInit) => {
    seen.push([String(url), new Headers(init?.headers).get("authorization")]);
    return new Response("{}", { status, headers });
  };
  return { fetch, seen };
}

describe("the OAuth fetch", () => {
  it("sends the stored token to the server's own origin, and to nothing else", async () => {
    const s = session();
    const { fetch, seen } = recording(200);
    const authed = s.fetch(fetch);
    await authed(URL_A, { method: "POST" });
    await authed("https://mcp.example.com/other", { method: "GET" });
    await authed("https://elsewhere.example.net/mcp", { method: "POST" });
    await authed("http://mcp.example.com/mcp", { method: "POST" });
    expect(seen).toEqual([
      [URL_A, "Bearer at-secret"],
      ["https://mcp.example.com/other", "Bearer at-secret"],
      ["https://elsewhere.example.net/mcp", null],
      ["http://mcp.example.com/mcp", null],
    ]);
  });

  it("a 403 for a scope the login already grants fails at once: no login could change it", async () => {
    const s = session();
    const { fetch, seen } = recording(403, {
      "www-authenticate": 'Bearer error="insufficient_scope", scope="read"',
    });
    await expect(s.fetch(fetch)(URL_A, { method: "POST" })).rejects.toThrow(
      'MCP server "work" refused the request for lack of scope "read", which the login already grants',
    );
    expect(seen).toHaveLength(1);
  });

  it("with no way to reach a person, a refusal is `needs login`", async () => {
    const s = session();
    const { fetch } = recording(401, { "www-authenticate": 'Bearer scope="read"' });
    await expect(s.fetch(fetch)(URL_A, { method: "POST" })).rejects.toThrow(
      'MCP server "work" needs login: toolplane mcp login work',
    );
  });

  it("an authorization server that never answers fails the login within the request bound, not never", async () => {
    const s = new OAuthSession({
      server: "work",
      url: URL_A,
      dir: path.join(tempDir("tp-logins-"), "mcp-oauth"),
      login: { open: () => {}, timeoutMs: 60_000 },
      authRequestTimeoutMs: 200,
    });
    // the MCP server refuses; every discovery request hangs until its signal gives up
    const fetch = (url: string | URL, init?: RequestInit) =>
      String(url) === URL_A
        ? Promise.resolve(new Response("{}", { status: 401, headers: { "www-authenticate": "Bearer" } }))
        : new Promise<Response>((_, reject) => {
            const signal = init?.signal;
            signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
          });
    await expect(s.fetch(fetch)(URL_A, { method: "POST" })).rejects.toThrow();
  }, 10_000);
});
