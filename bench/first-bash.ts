// One new process's first bash call, for bench/bash.ts: a Toolplane with the built-in tools
// (unsandboxed unless the second argument names a tools.sandbox mode, every ask approved), a bare
// spawn of `bash -c true` first (so both pay for a first spawn), then
// the tool's first call of the command given as the first argument (`true` by default). Prints
// {bareMs, firstMs} as one JSON line. The parent starts it with or without `--liftoff-only`, as
// the CLI and a library process run.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
// the package's own entry (dist/src/index.js requires the one bundled core the package ships),
// so the first call pays what a user's process pays: not the loading of the ~60 separate modules
// tsc emits for the benchmarks, which no installed toolplane has (2026-12-05: that loading was
// ~50 ms of the parsed line's first call)
import { Toolplane } from "../src/index.js";

const dir = mkdtempSync(path.join(tmpdir(), "tp-bench-first-bash-"));
mkdirSync(path.join(dir, ".git"));
const plane = await Toolplane.open({
  cwd: dir,
  env: { HOME: path.join(dir, "home"), PATH: process.env.PATH ?? "" },
  set: [`tools.sandbox=${process.argv[3] ?? "off"}`, "tools.timeoutMs=60000"],
  bundledSkills: null,
});
// a model calls bash only after it was shown the catalog: made first, as in every session
await plane.catalog("anthropic");

const b0 = performance.now();
await new Promise<void>((resolve, reject) => {
  const child = spawn("/bin/bash", ["-c", "true"], { cwd: dir, stdio: "ignore" });
  child.on("error", reject);
  child.on("close", () => resolve());
});
const bareMs = performance.now() - b0;
const t0 = performance.now();
// every command allowed, as the rule the host had before said: an ask is answered yes
const result = await plane.call("bash", { command: process.argv[2] ?? "true" }, { ask: () => true });
const firstMs = performance.now() - t0;
if (result.isError) throw new Error(JSON.stringify(result.error));
process.stdout.write(`${JSON.stringify({ bareMs, firstMs })}\n`);
await plane.close();
rmSync(dir, { recursive: true, force: true });
