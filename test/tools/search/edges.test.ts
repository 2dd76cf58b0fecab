import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtinFileTools } from "../../../src/tools/index.js";
import { testHost, textOf } from "../../helpers/host.js";
import { tempDir, writeTree } from "../../helpers/tmp.js";

// read, grep and glob through the execution host, on the inputs that broke them

function project(files: Record<string, string | Buffer> = {}, config: Record<string, unknown> = {}) {
  const ws = tempDir("tp-edges-");
  mkdirSync(path.join(ws, ".git"));
  writeTree(ws, files);
  return { ws, ...testHost(builtinFileTools(), { workspace: ws, config }) };
}

describe("a search that cannot start is an error result, never a crash", () => {
  it("a missing path: the same words as read's", async () => {
    const { host } = project({ "a.txt": "x\n" });
    const read = await host.call({ tool: "read", args: { path: "nope" } });
    expect(textOf(read)).toContain("nope does not exist: check the path");
    for (const [tool, args] of [
      ["glob", { pattern: "*", path: "nope" }],
      ["grep", { pattern: "x", path: "nope" }],
    ] as const) {
      const r = await host.call({ tool, args });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain("nope does not exist: check the path");
    }
    // the host (and the process) is still there
    expect(textOf(await host.call({ tool: "grep", args: { pattern: "x" } }))).toContain("a.txt");
  });

  it("glob on a file says to give a folder", async () => {
    const { host } = project({ "a.txt": "x\n" });
    const r = await host.call({ tool: "glob", args: { pattern: "*", path: "a.txt" } });
    expect(textOf(r)).toContain("a.txt is a file, not a folder");
  });

  it("a working directory that is gone", async () => {
    const ws = tempDir("tp-edges-cwd-");
    const cwd = path.join(ws, "sub");
    mkdirSync(cwd);
    const { host } = testHost(builtinFileTools(), { workspace: ws, cwd });
    rmSync(cwd, { recursive: true });
    for (const [tool, args] of [
      ["glob", { pattern: "*" }],
      ["grep", { pattern: "x" }],
    ] as const) {
      const r = await host.call({ tool, args });
      expect(r.isError, `${tool}: ${textOf(r)}`).toBe(true);
      expect(textOf(r)).toMatch(/does not exist: check the path/);
    }
  });
});

describe("a glob filters on top of the ignore rules", () => {
  const files = {
    ".gitignore": "ignored/\n*.log\n",
    "a.txt": "needle\n",
    "x.log": "needle\n",
    "ignored/b.txt": "needle\n",
    "src/c.txt": "needle\n",
    "src/deep/d.txt": "needle\n",
    ".git/config": "needle\n",
  };

  it("glob *.txt does not list .gitignore'd files", async () => {
    const { ws, host } = project(files);
    // one modification time for all: ties are listed by path
    const t = new Date("2024-01-01T00:00:00Z");
    for (const f of Object.keys(files)) utimesSync(path.join(ws, f), t, t);
    expect(textOf(await host.call({ tool: "glob", args: { pattern: "*.txt" } }))).toBe(
      "a.txt\nsrc/c.txt\nsrc/deep/d.txt",
    );
    expect(textOf(await host.call({ tool: "glob", args: { pattern: "*.log" } }))).toBe(
      'No files match "*.log".',
    );
    expect(textOf(await host.call({ tool: "glob", args: { pattern: "**" } }))).not.toMatch(
      /ignored|x\.log|\.git\//,
    );
    expect(textOf(await host.call({ tool: "glob", args: { pattern: "src/**/*.txt" } }))).toBe(
      "src/c.txt\nsrc/deep/d.txt",
    );
    expect(textOf(await host.call({ tool: "glob", args: { pattern: "!*.txt" } }))).toBe(".gitignore");
  });

  it("grep with glob ** does not search .git or ignored files", async () => {
    const { host } = project(files);
    const text = textOf(await host.call({ tool: "grep", args: { pattern: "needle", glob: "**" } }));
    expect(text).not.toMatch(/\.git\/config|ignored|x\.log/);
    expect(text).toBe("a.txt\nsrc/c.txt\nsrc/deep/d.txt\n\n(3 files with matches)");
    const txt = textOf(
      await host.call({ tool: "grep", args: { pattern: "needle", glob: "*.txt", output_mode: "count" } }),
    );
    expect(txt).toContain("(3 matching lines in 3 files)");
    const under = textOf(
      await host.call({
        tool: "grep",
        args: { pattern: "needle", glob: "src/deep/*", output_mode: "content", "-C": 2 },
      }),
    );
    expect(under).toBe("src/deep/d.txt\n1: needle\n\n(1 matching line in 1 file)");
  });
});

describe("grep refuses what it cannot finish, up front", () => {
  it("a FIFO", async () => {
    const { ws, host } = project({ "a.txt": "x\n" }, { "tools.timeoutMs": 20_000 });
    const fifo = path.join(ws, "pipe");
    if (spawnSync("mkfifo", [fifo]).status !== 0)
      throw new Error("mkfifo (coreutils) is needed for this test");
    const r = await host.call({ tool: "grep", args: { pattern: "x", path: "pipe" } });
    expect(r.error?.code).toBe("tool_error");
    expect(textOf(r)).toContain("pipe is a FIFO (named pipe), not a regular file");
  });

  it("a 100 GiB sparse file", async () => {
    const { ws, host } = project({}, { "tools.timeoutMs": 20_000 });
    const big = path.join(ws, "sparse.img");
    writeFileSync(big, "");
    truncateSync(big, 100 * 1024 ** 3);
    const r = await host.call({ tool: "grep", args: { pattern: "needle", path: "sparse.img" } });
    rmSync(big);
    expect(r.error?.code).toBe("tool_error");
    expect(textOf(r)).toMatch(
      /sparse\.img is a binary file: binary data \(a NUL byte at offset 0\); grep searches text files only/,
    );
  });

  it("a character device", async () => {
    const { host: open } = testHost(builtinFileTools(), {
      policy: { workspaceBoundary: false },
      config: { "tools.timeoutMs": 20_000 },
    });
    const r = await open.call({ tool: "grep", args: { pattern: "x", path: "/dev/zero" } });
    expect(textOf(r)).toContain("/dev/zero is a character device, not a regular file");
  });
});

describe("names are resolved byte-exactly as a listing gave them", () => {
  it("an NFD name (macOS form) found by glob and grep is read by that name", async () => {
    const nfd = "cafe\u0301.txt";
    const { host } = project({ [nfd]: "menu du jour\n" });
    const listed = textOf(await host.call({ tool: "glob", args: { pattern: "*.txt" } }));
    expect(listed).toBe(nfd);
    for (const output_mode of ["content", "files_with_matches", "count"]) {
      const grep = textOf(await host.call({ tool: "grep", args: { pattern: "menu", output_mode } }));
      expect(grep.split("\n")[0]!.replace(/: 1$/, "")).toBe(nfd);
    }
    const read = await host.call({ tool: "read", args: { path: listed } });
    expect(read.isError, textOf(read)).toBe(false);
    expect(textOf(read)).toContain("1\tmenu du jour");
    // the name re-composed (NFC), as a model may write it, still finds the file
    const nfc = await host.call({ tool: "read", args: { path: nfd.normalize("NFC") } });
    expect(textOf(nfc)).toContain("1\tmenu du jour");
  });
});
