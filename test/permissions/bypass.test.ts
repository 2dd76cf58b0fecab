import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/declare/index.js";
import { testHost, textOf } from "../helpers/host.js";
import { tempDir, writeTree } from "../helpers/tmp.js";

const opened: string[] = [];
const readFile = defineTool({
  name: "read_file",
  description: "Read a file.",
  parameters: z.object({ path: z.string() }),
  output: { schema: z.string(), render: (v: string) => v },
  permission: { action: "read", paths: (a) => [a.path] },
  execute: ({ path: p }) => {
    opened.push(p);
    return "contents";
  },
});

const root = tempDir("tp-bypass-");
const ws = path.join(root, "ws");
const outside = path.join(root, "outside");
writeTree(ws, {
  "notes/a.txt": "fine",
  "secret/key.txt": "hidden",
  "café/menu.txt": "hidden too",
  ".env": "TOKEN=1",
  "sub/.env.local": "TOKEN=2",
});
writeTree(outside, { "file.txt": "outside" });
mkdirSync(path.join(ws, "sub", "deeper"), { recursive: true });
symlinkSync(outside, path.join(ws, "link-out"));
symlinkSync(path.join(ws, "secret"), path.join(ws, "alias"));
symlinkSync(path.join(outside, "file.txt"), path.join(ws, "notes", "innocent.txt"));

const rules = [
  { effect: "deny" as const, path: "secret/**", reason: "secrets stay put" },
  { effect: "deny" as const, path: "café/**" },
];

describe("permission-bypass corpus: every attempt is denied before the tool runs", () => {
  const { host } = testHost([readFile], { workspace: ws, cwd: path.join(ws, "sub"), rules });
  const attempts: Array<[string, string]> = [
    ["parent escape", "../../outside/file.txt"],
    ["escape through a subfolder", "deeper/../../../outside/file.txt"],
    ["escape, back in, and out again", "../secret/../../outside/file.txt"],
    ["symlink to a folder outside", "../link-out/file.txt"],
    ["symlinked file pointing outside", "../notes/innocent.txt"],
    ["symlink to a denied folder", "../alias/key.txt"],
    ["absolute path outside", path.join(outside, "file.txt")],
    ["absolute path into a denied folder", path.join(ws, "secret", "key.txt")],
    ["root-relative double slash", `/${path.join(outside, "file.txt")}`],
    ["system file", "/etc/passwd"],
    ["mixed case", "../SECRET/key.txt"],
    ["mixed case file and folder", "../Secret/KEY.TXT"],
    ["Unicode: decomposed é (NFD)", "../cafe\u0301/menu.txt"],
    ["Unicode: composed é (NFC)", "../caf\u00e9/menu.txt"],
    ["trailing slash on a denied folder", "../secret/"],
    ["trailing double slash", "../secret//"],
    ["trailing dot segment", "../secret/./"],
    ["denied folder itself", "../secret"],
    ["NUL byte before an innocent suffix", "../secret/key.txt\u0000.png"],
    ["NUL byte in an allowed path", "../notes/a.txt\u0000"],
    ["empty path", ""],
    [".env asks, and no one approves", "../.env"],
    [".env via a detour", "deeper/../../.env"],
    [".env in mixed case", "../.ENV"],
    [".env.local", ".env.local"],
  ];

  it.each(attempts)("%s: %j", async (_label, attempt) => {
    opened.length = 0;
    const r = await host.call({ tool: "read_file", args: { path: attempt } });
    expect(r.isError, textOf(r)).toBe(true);
    expect(r.error?.code).toBe("permission_denied");
    expect(opened).toEqual([]);
  });

  it("the denial names the subject and the rule that decided", async () => {
    const r = await host.call({ tool: "read_file", args: { path: "../alias/key.txt" } });
    expect(textOf(r)).toMatch(/denied for path "\.\.\/alias\/key\.txt" by test rule #1: secrets stay put/);
    const out = await host.call({ tool: "read_file", args: { path: "../../outside/file.txt" } });
    expect(textOf(out)).toMatch(/workspace boundary/);
    const nul = await host.call({ tool: "read_file", args: { path: "a\u0000" } });
    expect(textOf(nul)).toMatch(/NUL byte/);
  });

  it("controls: an ordinary path inside runs; an approved ask runs", async () => {
    opened.length = 0;
    const r = await host.call({ tool: "read_file", args: { path: "../notes/a.txt" } });
    expect(r.isError).toBe(false);
    const asked: string[] = [];
    const { host: yes } = testHost([readFile], {
      workspace: ws,
      rules,
      ask: (req) => {
        asked.push(req.decision.decidedBy.origin);
        return true;
      },
    });
    const env = await yes.call({ tool: "read_file", args: { path: ".env" } });
    expect(env.isError).toBe(false);
    expect(asked).toEqual(["built-in: sensitive file (permissions.askFiles)"]);
    // an approved ask never carries a deny
    const still = await yes.call({ tool: "read_file", args: { path: "secret/key.txt" } });
    expect(still.error?.code).toBe("permission_denied");
    expect(opened).toEqual(["../notes/a.txt", ".env"]);
  });

  it("the boundary can be widened only by configuration, never by an allow rule", async () => {
    const allowAll = [{ effect: "allow" as const, path: "/**" }];
    const { host: h } = testHost([readFile], { workspace: ws, rules: allowAll });
    const r = await h.call({ tool: "read_file", args: { path: path.join(outside, "file.txt") } });
    expect(r.error?.code).toBe("permission_denied");
    const { host: off } = testHost([readFile], { workspace: ws, policy: { workspaceBoundary: false } });
    expect(
      (await off.call({ tool: "read_file", args: { path: path.join(outside, "file.txt") } })).isError,
    ).toBe(false);
  });
});

describe("`..` after a symlink is taken from the link's target, as the kernel does", () => {
  it("scratch/link/../victim.txt is victim.txt beside the link's target, outside the workspace", async () => {
    const { resolvePath } = await import("../../src/permissions/paths.js");
    const root = tempDir("tp-dotdot-");
    const ws = path.join(root, "ws");
    mkdirSync(path.join(ws, "scratch"), { recursive: true });
    mkdirSync(path.join(root, "outside", "deep"), { recursive: true });
    symlinkSync(path.join(root, "outside", "deep"), path.join(ws, "scratch", "link"));
    const r = resolvePath("scratch/link/../victim.txt", ws, ws);
    expect(r.real).toBe(path.join(root, "outside", "victim.txt"));
    expect(r.inside).toBe(false);
    // without a symlink on the way, `..` folds as written
    expect(resolvePath("scratch/../a.txt", ws, ws).real).toBe(path.join(ws, "a.txt"));
  });
});
