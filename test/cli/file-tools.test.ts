import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, ROOT, runCli } from "../helpers/cli.js";
import { fileLines, footerOffset } from "../helpers/paging.js";
import { tempProject } from "../helpers/tmp.js";

// `toolplane call` with the file tools, as a person or a script runs it.

describe("toolplane call: read, grep and glob", () => {
  it("glob and grep on a missing path: an error result and exit 1, never a crash", () => {
    const p = tempProject({ "a.txt": "x\n" });
    for (const [tool, args] of [
      ["glob", '{"pattern":"*","path":"nope"}'],
      ["grep", '{"pattern":"x","path":"nope"}'],
    ]) {
      const r = runCli(["call", tool!, "--args", args!, "--json"], { cwd: p.repo, env: p.env });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).not.toMatch(/ENOENT|at .*\(node:/);
      const out = JSON.parse(r.stdout);
      expect(out).toMatchObject({ tool, isError: true, error: { code: "tool_error" } });
      expect(out.content[0].text).toBe(
        `${tool} failed: nope does not exist: check the path (glob can find files by name)`,
      );
    }
  });

  it("glob in a folder it may not enter (EACCES): an error result", () => {
    const p = tempProject({ "a.txt": "x\n" });
    const locked = path.join(p.repo, "locked");
    mkdirSync(locked);
    writeFileSync(path.join(locked, "f.txt"), "x\n");
    // root enters any folder: run the CLI as an unprivileged user then
    const asRoot = process.getuid?.() === 0;
    if (asRoot) for (const dir of [p.root, p.repo, path.join(p.repo, ".git"), p.home]) chmodSync(dir, 0o755);
    chmodSync(locked, asRoot ? 0o700 : 0o000);
    try {
      const r = spawnSync(
        process.execPath,
        [CLI, "call", "glob", "--args", '{"pattern":"*","path":"locked"}', "--json"],
        {
          cwd: p.repo,
          env: p.env,
          encoding: "utf8",
          timeout: 60_000,
          ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
        },
      );
      expect(r.status, r.stderr).toBe(1);
      const out = JSON.parse(r.stdout);
      expect(out).toMatchObject({ isError: true, error: { code: "tool_error" } });
      expect(out.content[0].text).toBe("glob failed: locked cannot be read: permission denied");
    } finally {
      chmodSync(locked, 0o755);
    }
  });

  it("read pages of lib.es5.d.ts: nextOffset is the first line not shown, nothing cut by the host", () => {
    const bytes = readFileSync(path.join(ROOT, "node_modules", "typescript", "lib", "lib.es5.d.ts"));
    const p = tempProject({ "lib.es5.d.ts": bytes });
    const lines = fileLines(bytes);
    const r = runCli(["call", "read", "--args", '{"path":"lib.es5.d.ts"}', "--json"], {
      cwd: p.repo,
      env: p.env,
    });
    const out = JSON.parse(r.stdout);
    const text: string = out.content[0].text;
    const rows = text.split("\n").filter((l) => /^\d+\t/.test(l));
    const last = Number(rows.at(-1)!.split("\t")[0]);
    expect(out.nextOffset).toBe(last + 1);
    expect(footerOffset(text)).toBe(last + 1);
    expect(text).not.toContain("[output cut");
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(51_200);
    rows.forEach((row, i) => {
      expect(row).toBe(`${i + 1}\t${lines[i]}`);
    });
  });
});
