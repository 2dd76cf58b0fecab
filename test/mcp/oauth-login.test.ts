// OAuth for HTTP MCP servers along the user's path: `toolplane mcp login` through a browser (a
// $BROWSER that follows redirects as a browser does), the login kept under $TOOLPLANE_HOME, calls
// that use and refresh it, `needs login` where no browser can be opened, logout, a corrupt login
// file, and a project that names its own server like the one the user logged in to. The servers
// are the MCP SDK's own authorization server and protected resource (test/helpers/mcp-http.ts).
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginFile } from "../../src/mcp/client/oauth/store.js";
import { ROOT, runCliAsync } from "../helpers/cli.js";
import { type OAuthMcpServer, startOAuthMcpServer } from "../helpers/mcp-http.js";
import { tempDir, tempProject } from "../helpers/tmp.js";

const FOLLOW = path.join(ROOT, "test", "mcp", "conformance", "browser.sh");

/** A $BROWSER that must not be used: it leaves a file behind when it is. */
function refusingBrowser(): { command: string; used: () => boolean } {
  const dir = tempDir("tp-nobrowser-");
  const mark = path.join(dir, "opened");
  const command = path.join(dir, "browser.sh");
  writeFileSync(command, `#!/bin/sh\necho "$1" > ${JSON.stringify(mark)}\nexit 1\n`);
  chmodSync(command, 0o755);
  return { command, used: () => existsSync(mark) };
}

/** A project whose .toolplane/config.json names `servers`, and the user's home beside it. */
function project(servers: Record<string, unknown>, home?: string) {
  const p = tempProject({ ".toolplane/config.json": JSON.stringify({ mcp: { servers } }) });
  const env = { ...p.bareEnv, HOME: home ?? p.home };
  return { ...p, env, toolplaneHome: path.join(env.HOME, ".config", "toolplane") };
}

const loginDir = (toolplaneHome: string) => path.join(toolplaneHome, "mcp-oauth");
const loginFiles = (toolplaneHome: string) =>
  existsSync(loginDir(toolplaneHome))
    ? readdirSync(loginDir(toolplaneHome)).map((f) => path.join(loginDir(toolplaneHome), f))
    : [];

let server: OAuthMcpServer;
let evil: OAuthMcpServer;
beforeAll(async () => {
  [server, evil] = await Promise.all([startOAuthMcpServer(), startOAuthMcpServer()]);
});
afterAll(async () => {
  await Promise.all([server?.close(), evil?.close()]);
});

/** A server of the test's own, for tests that count what it saw or disturb its tokens. */
async function withOwnServer(test: (own: OAuthMcpServer) => Promise<void>): Promise<void> {
  const own = await startOAuthMcpServer();
  try {
    await test(own);
  } finally {
    await own.close();
  }
}

// Each test has its own project and home; they run at once (each is a few CLI runs in a row).
describe.concurrent("OAuth through the CLI", () => {
  it("catalog and call say `needs login: toolplane mcp login NAME`; nothing opens a browser", async () => {
    const p = project({ remote: { url: server.url } });
    const browser = refusingBrowser();
    // the call has no browser to open (no $BROWSER, no display): it answers the same, as its result
    const [catalog, call] = await Promise.all([
      runCliAsync(["catalog", "--json"], { cwd: p.repo, env: { ...p.env, BROWSER: browser.command } }),
      runCliAsync(["call", "mcp__remote__whoami", "--json"], { cwd: p.repo, env: p.env }),
    ]);
    const problems = JSON.parse(catalog.stdout).problems as Array<{ provider: string; reason: string }>;
    expect(problems).toContainEqual(
      expect.objectContaining({
        provider: "mcp:remote",
        reason: 'MCP server "remote" needs login: toolplane mcp login remote',
      }),
    );
    expect(browser.used()).toBe(false);
    expect(call.code).toBe(1);
    expect(JSON.parse(call.stdout).error.message).toContain(
      'MCP server "remote" needs login: toolplane mcp login remote',
    );
    expect(loginFiles(p.toolplaneHome)).toEqual([]);
  });

  it("mcp login goes through the browser, keeps the login 0600 in $TOOLPLANE_HOME, never prints it; a call uses it (refreshed when the server refuses the token) without a browser; logout forgets it", async () => {
    await withOwnServer(async (own) => {
      const p = project({ remote: { url: own.url } });
      const login = await runCliAsync(["mcp", "login", "remote", "--json"], {
        cwd: p.repo,
        env: { ...p.env, BROWSER: FOLLOW },
      });
      expect(login.code, login.stderr).toBe(0);
      const out = JSON.parse(login.stdout);
      expect(out).toMatchObject({
        server: "remote",
        url: own.url,
        loggedIn: true,
        scopes: ["mcp:tools"],
        tools: 1,
      });
      expect(out.file.startsWith(`${loginDir(p.toolplaneHome)}${path.sep}`)).toBe(true);
      expect(statSync(out.file).mode & 0o777).toBe(0o600);
      expect(statSync(loginDir(p.toolplaneHome)).mode & 0o777).toBe(0o700);
      const stored = JSON.parse(readFileSync(out.file, "utf8"));
      expect(stored.serverUrl).toBe(own.url);
      for (const secret of [stored.tokens.access_token, stored.tokens.refresh_token])
        expect(login.stdout + login.stderr).not.toContain(secret);
      // nothing was written into the project
      expect(readdirSync(path.join(p.repo, ".toolplane"))).toEqual(["config.json"]);

      // the server forgets its tokens (a restart, a revoked grant): the call refreshes, no browser
      own.forgetAccessTokens();
      const browser = refusingBrowser();
      const call = await runCliAsync(["call", "mcp__remote__whoami", "--json"], {
        cwd: p.repo,
        env: { ...p.env, BROWSER: browser.command },
      });
      expect(call.code, call.stderr).toBe(0);
      expect(JSON.parse(call.stdout).content[0].text).toMatch(/^client \S+ scopes mcp:tools$/);
      expect(browser.used()).toBe(false);
      expect(own.seen).toMatchObject({ registrations: 1, authorizations: 1, refreshes: 1 });

      const logout = await runCliAsync(["mcp", "logout", "remote", "--json"], { cwd: p.repo, env: p.env });
      expect(JSON.parse(logout.stdout)).toMatchObject({
        server: "remote",
        loggedOut: true,
        removed: [out.file],
      });
      expect(existsSync(out.file)).toBe(false);
    });
  });

  it("a corrupt login file is a clear error that says what to do; logout clears it", async () => {
    // (every other way a login file can be unusable: test/mcp/oauth-store.test.ts)
    const p = project({ remote: { url: server.url } });
    const file = loginFile(loginDir(p.toolplaneHome), server.url, "");
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, "{ not json", { mode: 0o600 });
    const corrupt = await runCliAsync(["call", "mcp__remote__whoami", "--json"], { cwd: p.repo, env: p.env });
    expect(corrupt.code).toBe(1);
    const message = JSON.parse(corrupt.stdout).error.message;
    expect(message).toContain(`${file} is not JSON (`);
    expect(message).toContain(
      "toolplane keeps MCP logins there: remove it (or run toolplane mcp logout remote) and log in again",
    );
    const logout = await runCliAsync(["mcp", "logout", "remote", "--json"], { cwd: p.repo, env: p.env });
    expect(JSON.parse(logout.stdout).removed).toEqual([file]);
  });

  it("a stdio server or an unknown name is bad usage", async () => {
    const p = project({});
    const local = `mcp.servers=${JSON.stringify({ local: { command: "true" } })}`;
    const [stdio, unknown] = await Promise.all([
      runCliAsync(["mcp", "login", "local", "--set", local], { cwd: p.repo, env: p.env }),
      runCliAsync(["mcp", "logout", "nope"], { cwd: p.repo, env: p.env }),
    ]);
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toContain(
      'MCP server "local" runs a command (stdio): only HTTP servers have logins',
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no MCP server "nope" in mcp.servers');
  });

  it("`call` logs in inline; the login belongs to the server's URL: a project naming its server like the user's never gets that token", async () => {
    const home = tempDir("tp-home-");
    const work = project({ work: { url: server.url } }, home);
    // the user logs in inline: a call where a browser can be opened
    const logged = await runCliAsync(["call", "mcp__work__whoami", "--json"], {
      cwd: work.repo,
      env: { ...work.env, BROWSER: FOLLOW },
    });
    expect(logged.code, logged.stderr).toBe(0);
    expect(logged.stderr).toContain('MCP server "work" asks you to log in; opening your browser at:');
    const token = JSON.parse(readFileSync(loginFiles(work.toolplaneHome)[0] as string, "utf8")).tokens
      .access_token;
    // another repository, untrusted, calls its server "work" too, at its own address
    const attack = project({ work: { url: evil.url } }, home);
    const [call, own] = await Promise.all([
      runCliAsync(["call", "mcp__work__whoami", "--json"], { cwd: attack.repo, env: attack.env }),
      runCliAsync(["call", "mcp__work__whoami", "--json"], { cwd: work.repo, env: work.env }),
    ]);
    expect(JSON.parse(call.stdout).error.message).toContain("needs login: toolplane mcp login work");
    expect(evil.seen.bearers.length).toBeGreaterThan(0);
    expect(evil.seen.bearers.some((b) => b.includes(token))).toBe(false);
    expect(evil.seen.bearers.every((b) => b === "")).toBe(true);
    // and the user's own server still has its login
    expect(own.code, own.stderr).toBe(0);
  });
});
