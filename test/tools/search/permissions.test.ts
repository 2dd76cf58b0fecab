import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AskRequest } from "../../../src/execute/index.js";
import type { PermissionRule } from "../../../src/permissions/index.js";
import { builtinFileTools } from "../../../src/tools/index.js";
import { testHost, textOf } from "../../helpers/host.js";
import { tempDir, writeTree } from "../../helpers/tmp.js";

// Every file a search would show is decided by the same rules as a read of it: a denied file is
// left out (and counted), an ask-file is shown only when asked and approved.

const DENY_SECRETS: PermissionRule[] = [{ effect: "deny", path: "secrets/**" }];

function workspace() {
  const root = tempDir("tp-searchperm-");
  const ws = path.join(root, "ws");
  mkdirSync(path.join(ws, ".git"), { recursive: true });
  writeTree(ws, {
    "secrets/k": "TOPSECRET key\n",
    "secrets/deeper/k2": "TOPSECRET two\n",
    ".env": "TOPSECRET=env\n",
    "conf/server.pem": "TOPSECRET pem\n",
    "notes.txt": "TOPSECRET is a word in the notes\n",
  });
  writeTree(path.join(root, "outside"), { "o.txt": "TOPSECRET outside\n" });
  // a link inside the workspace to a denied file: the rules see where it leads
  symlinkSync(path.join(ws, "secrets", "k"), path.join(ws, "alias-k"));
  return { root, ws, outside: path.join(root, "outside") };
}

function host(ws: string, opts: { rules?: PermissionRule[]; ask?: (a: AskRequest) => boolean } = {}) {
  return testHost(builtinFileTools(), {
    workspace: ws,
    rules: opts.rules ?? [],
    ...(opts.ask ? { ask: opts.ask } : {}),
  }).host;
}

describe("grep and glob keep to the permission rules", () => {
  it("a read of secrets/k is denied, and grep leaves it out with a count", async () => {
    const { ws } = workspace();
    const h = host(ws, { rules: DENY_SECRETS });
    expect((await h.call({ tool: "read", args: { path: "secrets/k" } })).error?.code).toBe(
      "permission_denied",
    );
    for (const output_mode of ["content", "files_with_matches", "count"]) {
      const r = await h.call({ tool: "grep", args: { pattern: "TOPSECRET", output_mode } });
      const text = textOf(r);
      expect(r.isError).toBe(false);
      expect(text).toContain("notes.txt");
      expect(text).not.toMatch(/secrets\/|key|two|=env|pem/);
      expect(text).toContain(
        output_mode === "files_with_matches" ? "(1 file with matches)" : "(1 matching line in 1 file)",
      );
      // two denied, and .env and server.pem ask with no approver attached
      expect(text).toContain(
        "(4 files withheld by permissions: 2 denied, 2 needing approval that was not given)",
      );
    }
  });

  it("glob leaves out denied names and unapproved ask-files, with a count", async () => {
    const { ws } = workspace();
    const r = await host(ws, { rules: DENY_SECRETS }).call({ tool: "glob", args: { pattern: "*" } });
    const text = textOf(r);
    expect(text).not.toMatch(/secrets|\.env|\.pem/);
    expect(text).toContain("notes.txt");
    expect(text).toContain(
      "(4 files withheld by permissions: 2 denied, 2 needing approval that was not given)",
    );
  });

  it("a folder listing leaves out the names the rules deny, with a count", async () => {
    const { ws } = workspace();
    const r = await host(ws, { rules: DENY_SECRETS }).call({ tool: "read", args: { path: "." } });
    const text = textOf(r);
    // alias-k leads to secrets/k: denied by where it leads
    expect(text).not.toMatch(/secrets|alias-k/);
    expect(text).toContain(".env"); // an ask-file's name is listed; reading it still asks
    expect(text).toMatch(/\(end of folder: 4 entries\)\n\(2 entries withheld by permissions\)$/);
  });

  it("a search rooted in a denied folder is denied outright, as a read is", async () => {
    const { ws } = workspace();
    const r = await host(ws, { rules: DENY_SECRETS }).call({
      tool: "grep",
      args: { pattern: "TOPSECRET", path: "secrets" },
    });
    expect(r.error?.code).toBe("permission_denied");
    expect(textOf(r)).not.toContain("key");
  });

  it("an ask-file is asked about once, one ask at a time, and shown when approved", async () => {
    const { ws } = workspace();
    const asked: string[] = [];
    let inFlight = 0;
    const h = host(ws, {
      rules: DENY_SECRETS,
      ask: (a) => {
        inFlight++;
        expect(inFlight).toBe(1);
        asked.push(`${a.tool} ${a.decision.decidedBy.origin} ${a.request.paths[0]!.input}`);
        inFlight--;
        return a.request.paths[0]!.input.endsWith(".env");
      },
    });
    const r = await h.call({ tool: "grep", args: { pattern: "TOPSECRET", output_mode: "content" } });
    const text = textOf(r);
    expect(text).toContain(".env\n1: TOPSECRET=env");
    expect(text).not.toContain("pem");
    expect(text).toContain(
      "(3 files withheld by permissions: 2 denied, 1 needing approval that was not given)",
    );
    expect(asked).toEqual([
      `grep built-in: sensitive file (permissions.askFiles) ${path.join(ws, ".env")}`,
      `grep built-in: sensitive file (permissions.askFiles) ${path.join(ws, "conf", "server.pem")}`,
    ]);
  });

  it("a search of one ask-file asks once for the call and shows it when approved", async () => {
    const { ws } = workspace();
    let asks = 0;
    const h = host(ws, {
      ask: () => {
        asks++;
        return true;
      },
    });
    const r = await h.call({
      tool: "grep",
      args: { pattern: "TOPSECRET", path: ".env", output_mode: "content" },
    });
    expect(textOf(r)).toContain("TOPSECRET=env");
    expect(asks).toBe(1);
  });

  it("a symlink to a denied file is judged by where it leads", async () => {
    const { ws } = workspace();
    const r = await host(ws, { rules: DENY_SECRETS }).call({
      tool: "grep",
      args: { pattern: "TOPSECRET", path: "alias-k" },
    });
    expect(r.error?.code).toBe("permission_denied");
  });

  it("with no rules and askFiles off, nothing is withheld", async () => {
    const { ws } = workspace();
    const { host: h } = testHost(builtinFileTools(), { workspace: ws, policy: { askFiles: [] } });
    const r = await h.call({ tool: "grep", args: { pattern: "TOPSECRET", output_mode: "count" } });
    expect(textOf(r)).toContain("(5 matching lines in 5 files)");
    expect(textOf(r)).not.toContain("withheld");
  });
});

describe("the boundary for read, grep and glob follows the configuration", () => {
  it("permissions.additionalDirectories lets read, grep and glob reach that folder", async () => {
    const { ws, outside } = workspace();
    const { host: h } = testHost(builtinFileTools(), { workspace: ws });
    expect((await h.call({ tool: "read", args: { path: path.join(outside, "o.txt") } })).isError).toBe(true);
    const { host: wide } = testHost(builtinFileTools(), { workspace: ws, extraRoots: [outside] });
    const read = await wide.call({ tool: "read", args: { path: path.join(outside, "o.txt") } });
    expect(textOf(read)).toContain("1\tTOPSECRET outside");
    const grep = await wide.call({
      tool: "grep",
      args: { pattern: "TOPSECRET", path: outside, output_mode: "content" },
    });
    expect(textOf(grep)).toContain("o.txt\n1: TOPSECRET outside");
    const glob = await wide.call({ tool: "glob", args: { pattern: "*.txt", path: outside } });
    expect(textOf(glob)).toContain(path.join(outside, "o.txt"));
  });

  it("permissions.workspaceBoundary=false lets them reach outside", async () => {
    const { ws, outside } = workspace();
    const { host: off } = testHost(builtinFileTools(), {
      workspace: ws,
      policy: { workspaceBoundary: false },
    });
    const read = await off.call({ tool: "read", args: { path: path.join(outside, "o.txt") } });
    expect(read.isError, textOf(read)).toBe(false);
    const grep = await off.call({
      tool: "grep",
      args: { pattern: "TOPSECRET", path: outside, output_mode: "content" },
    });
    expect(textOf(grep)).toContain("1: TOPSECRET outside");
  });

  it("the workspace boundary still holds for a search's files when it is on", async () => {
    const { ws, outside } = workspace();
    writeFileSync(path.join(ws, "notes2.txt"), "plain\n");
    const { host: h } = testHost(builtinFileTools(), { workspace: ws });
    const r = await h.call({ tool: "grep", args: { pattern: "TOPSECRET", path: outside } });
    expect(r.error?.code).toBe("permission_denied");
  });
});
