// One new process's first bash call, for bench/bash.ts: a host with the bash tool (unsandboxed,
// commands allowed), a bare spawn of `bash -c true` first (so both pay for a first spawn), then
// the tool's first call of the command given as the first argument (`true` by default). Prints
// {bareMs, firstMs} as one JSON line. The parent starts it with or without `--liftoff-only`, as
// the CLI and a library process run.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { ExecutionHost, newToolSession, SpillStore } from "../src/execute/index.js";
import { bashTool } from "../src/tools/bash/tool.js";

const dir = mkdtempSync(path.join(tmpdir(), "tp-bench-first-bash-"));
const host = new ExecutionHost({
  tools: () => ({ tools: [{ tool: bashTool(), namespace: "bench" }] }),
  config: { "tools.timeoutMs": 60_000, "tools.sandbox": "off" },
  policy: {
    rules: [{ rule: { effect: "allow", action: "command" }, origin: "bench" }],
    defaultEffect: "allow",
    workspaceBoundary: true,
    askFiles: [],
    caseInsensitive: false,
    actionDefaults: { command: "ask", write: "ask" },
  },
  cwd: dir,
  workspace: dir,
  spill: new SpillStore(path.join(dir, "spill"), "first"),
  session: newToolSession(),
});

const b0 = performance.now();
await new Promise<void>((resolve, reject) => {
  const child = spawn("/bin/bash", ["-c", "true"], { cwd: dir, stdio: "ignore" });
  child.on("error", reject);
  child.on("close", () => resolve());
});
const bareMs = performance.now() - b0;
const t0 = performance.now();
const result = await host.call({ tool: "bash", args: { command: process.argv[2] ?? "true" } });
const firstMs = performance.now() - t0;
if (result.isError) throw new Error(JSON.stringify(result.error));
process.stdout.write(`${JSON.stringify({ bareMs, firstMs })}\n`);
rmSync(dir, { recursive: true, force: true });
