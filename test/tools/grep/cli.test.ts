import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, runCli } from "../../helpers/cli.js";
import { tempProject } from "../../helpers/tmp.js";

// util-linux `script` gives the CLI a terminal for stderr while stdout goes to a file
const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;

describe("toolplane call grep: progress for people only", () => {
  const p = tempProject({ "a.txt": "needle\nneedle\n", "b/c.txt": "x\nneedle\n" });
  const args = ["call", "grep", "--args", '{"pattern":"needle","output_mode":"content"}', "--json"];

  it("with stderr a pipe: no progress, and stdout is the one JSON document", () => {
    const r = runCli(args, { cwd: p.repo, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toMatchObject({ tool: "grep", isError: false });
  });

  it.skipIf(!hasScript)("with stderr a terminal: counts drawn on it, cleared, never in --json stdout", () => {
    const out = path.join(p.root, "out.json");
    const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
    const r = spawnSync("script", ["-qec", `${quoted} > '${out}'`, "/dev/null"], {
      cwd: p.repo,
      env: p.env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    // what the terminal saw: the running counts of both passes, then a cleared line
    expect(r.stdout).toMatch(/\r\x1b\[Kgrep \d+ matching lines in [12] files?/);
    expect(r.stdout).toContain("\r\x1b[Kgrep 3/3 matches read");
    expect(r.stdout.endsWith("\r\x1b[K")).toBe(true);
    const json = readFileSync(out, "utf8");
    expect(json).not.toContain("\x1b");
    expect(JSON.parse(json)).toMatchObject({ tool: "grep", isError: false });
  });
});
