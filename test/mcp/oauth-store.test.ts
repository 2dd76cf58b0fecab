// The login store (src/mcp/client/oauth/store.ts): where a login is kept, how it is written, and
// every way a file there can be unusable, each an error that names the file and the way out.
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { forgetLogins, LoginStore, loginFile, loginsDir } from "../../src/mcp/client/oauth/store.js";
import { tempDir } from "../helpers/tmp.js";

const URL_A = "https://mcp.example.com/mcp";
const URL_B = "https://evil.example.net/mcp";
const store = (dir: string, url = URL_A, client = "") =>
  new LoginStore(loginFile(dir, url, client), url, client, "work");
const TOKENS = { access_token: "at-1", token_type: "bearer", refresh_token: "rt-1" };

describe("the login store", () => {
  it("lives in $TOOLPLANE_HOME/mcp-oauth, one file per server URL and client identity", () => {
    expect(loginsDir({ TOOLPLANE_HOME: "/h/tp" })).toBe(path.resolve("/h/tp/mcp-oauth"));
    const dir = "/d";
    expect(loginFile(dir, URL_A, "")).toBe(loginFile(dir, `${URL_A}#fragment`, ""));
    expect(loginFile(dir, URL_A, "")).not.toBe(loginFile(dir, URL_B, ""));
    expect(loginFile(dir, URL_A, "")).not.toBe(loginFile(dir, URL_A, "my-client"));
    expect(path.basename(loginFile(dir, URL_A, ""))).toMatch(/^[0-9a-f]{32}\.json$/);
  });

  it("writes the user's alone (0600 in a 0700 folder), whole, and reads what another process wrote", () => {
    const dir = path.join(tempDir("tp-logins-"), "mcp-oauth");
    const a = store(dir);
    a.update((login) => {
      login.tokens = TOKENS;
      login.obtainedAt = 1;
    });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(a.file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual([path.basename(a.file)]);
    expect(JSON.parse(readFileSync(a.file, "utf8"))).toEqual({
      version: 1,
      serverUrl: URL_A,
      client: "",
      tokens: TOKENS,
      obtainedAt: 1,
    });
    // a second store on the same file (another toolplane process) sees the change at its next read
    const b = store(dir);
    expect(b.read()?.tokens?.access_token).toBe("at-1");
    a.update((login) => {
      login.tokens = { ...TOKENS, access_token: "at-2" };
    });
    expect(b.read()?.tokens?.access_token).toBe("at-2");
    // nothing left: no file
    a.update((login) => {
      delete login.tokens;
    });
    expect(existsSync(a.file)).toBe(false);
  });

  it("refuses a file that is not a login of this server, not the user's alone, or not a file", () => {
    const dir = path.join(tempDir("tp-logins-"), "mcp-oauth");
    const a = store(dir);
    a.update((login) => {
      login.tokens = TOKENS;
    });
    const way =
      "toolplane keeps MCP logins there: remove it (or run toolplane mcp logout work) and log in again";
    chmodSync(a.file, 0o640);
    expect(() => store(dir).read()).toThrow(
      `${a.file} can be read by others (mode 640); a login must be yours alone; ${way}`,
    );
    chmodSync(a.file, 0o600);
    // another server's login copied over this one's file
    const other = store(dir, URL_B);
    other.update((login) => {
      login.tokens = TOKENS;
    });
    writeFileSync(a.file, readFileSync(other.file), { mode: 0o600 });
    expect(() => store(dir).read()).toThrow(`is a login for "${URL_B}", not for "${URL_A}"`);
    writeFileSync(
      a.file,
      JSON.stringify({ version: 1, serverUrl: URL_A, client: "", tokens: { token_type: "x" } }),
    );
    expect(() => store(dir).read()).toThrow("holds tokens without an access_token");
    writeFileSync(a.file, "{");
    expect(() => store(dir).read()).toThrow(`${a.file} is not JSON`);
    // a link planted where the login goes is not followed
    const target = path.join(tempDir("tp-elsewhere-"), "t.json");
    writeFileSync(target, readFileSync(other.file), { mode: 0o600 });
    const planted = store(dir, "https://third.example/mcp");
    symlinkSync(target, planted.file);
    expect(() => planted.read()).toThrow("is not a regular file");
  });

  it("logout removes every login of the URL, a corrupt one of this client included, and no other URL's", () => {
    const dir = path.join(tempDir("tp-logins-"), "mcp-oauth");
    for (const s of [store(dir), store(dir, URL_A, "old-client"), store(dir, URL_B)])
      s.update((login) => {
        login.tokens = TOKENS;
      });
    writeFileSync(store(dir).file, "not json");
    const removed = forgetLogins(dir, URL_A, "");
    expect(removed.sort()).toEqual([store(dir).file, store(dir, URL_A, "old-client").file].sort());
    expect(readdirSync(dir)).toEqual([path.basename(store(dir, URL_B).file)]);
  });
});
