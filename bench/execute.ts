import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { defineTool } from "../src/declare/index.js";
import { ExecutionHost, SpillStore } from "../src/execute/index.js";
import { emit, type Figure, median, peakRssMiB, round } from "./lib.js";

// Spills a 1 GiB streamed output through the execution host and compares its throughput with
// `cat > file` writing the same bytes, in the same run, alternating so disk drift hits both.
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const INLINE = 51_200;
const REPS = Number(process.env.BENCH_REPS ?? 7);

// BENCH_DIR picks the filesystem (e.g. /dev/shm to take the disk out of the comparison)
const dir = mkdtempSync(path.join(process.env.BENCH_DIR ?? tmpdir(), "tp-bench-execute-"));

const LINE = `${"0123456789abcdef".repeat(4)}\n`;
const textChunk = (bytes: number) => Buffer.from(LINE.repeat(Math.ceil(bytes / LINE.length)).slice(0, bytes));

function streamTool(chunkBytes: number) {
  // zero-cost chunks: one buffer of text lines, written over and over
  const chunk = textChunk(chunkBytes);
  return defineTool({
    name: "stream",
    description: "Streams 1 GiB of text.",
    parameters: z.object({}),
    output: { schema: z.object({ exit: z.number() }), render: (v: { exit: number }) => `exit ${v.exit}` },
    execute: async (_args, ctx) => {
      for (let n = 0; n < GiB; n += chunk.length) await ctx.stream!.write(chunk);
      return { exit: 0 };
    },
  });
}

function hostFor(chunkBytes: number, session: string) {
  const tool = streamTool(chunkBytes);
  return new ExecutionHost({
    tools: () => ({ tools: [{ tool, namespace: "bench" }] }),
    config: { "results.inlineMaxBytes": INLINE, "tools.timeoutMs": 600_000 },
    policy: {
      rules: [],
      defaultEffect: "allow",
      workspaceBoundary: true,
      askFiles: [],
      caseInsensitive: false,
    },
    cwd: dir,
    workspace: dir,
    spill: new SpillStore(path.join(dir, "spill"), session),
  });
}

async function hostRun(chunkBytes: number, rep: number, sampleMemory = false) {
  const host = hostFor(chunkBytes, `run-${chunkBytes}-${rep}`);
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage.rss();
  let peak = base;
  // sampling only in the memory run: a 2 ms timer wakes the loop and would slow the timed runs
  const sampler = sampleMemory
    ? setInterval(() => {
        peak = Math.max(peak, process.memoryUsage.rss());
      }, 2)
    : undefined;
  const t0 = performance.now();
  const result = await host.call({ tool: "stream", args: {} });
  const ms = performance.now() - t0;
  if (sampler) clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  if (result.isError || !result.spillPath || statSync(result.spillPath).size !== GiB) {
    throw new Error(`spill failed: ${JSON.stringify(result).slice(0, 400)}`);
  }
  rmSync(result.spillPath);
  return { ms, growthMiB: (peak - base) / MiB };
}

/** Node's own floor: the same chunks written with FileHandle.write, nothing else. */
async function nodeRawRun(): Promise<number> {
  const target = path.join(dir, "raw.bin");
  const chunk = textChunk(MiB);
  const t0 = performance.now();
  const handle = await open(target, "w");
  for (let n = 0; n < GiB; n += MiB) await handle.write(chunk);
  await handle.close();
  const ms = performance.now() - t0;
  rmSync(target);
  return ms;
}

function shellRun(command: string): number {
  const target = path.join(dir, "baseline.bin");
  const t0 = performance.now();
  const r = spawnSync("sh", ["-c", command.replaceAll("$OUT", target)], { stdio: "ignore" });
  const ms = performance.now() - t0;
  if (r.status !== 0 || statSync(target).size !== GiB) throw new Error(`baseline failed: ${command}`);
  rmSync(target);
  return ms;
}

async function main() {
  // the baselines write the very bytes the tool streams (zeros write faster on this machine's disk)
  const source = path.join(dir, "source.bin");
  const sourceFd = openSync(source, "w");
  const block = textChunk(MiB);
  for (let n = 0; n < GiB; n += MiB) writeSync(sourceFd, block);
  closeSync(sourceFd);
  const cat = `cat "${source}" > "$OUT"`;
  const dd = `dd if="${source}" of="$OUT" bs=1M status=none`;
  const empty = () => {
    const t0 = performance.now();
    spawnSync("sh", ["-c", "true"]);
    return performance.now() - t0;
  };
  const times = {
    cat: [] as number[],
    dd: [] as number[],
    raw: [] as number[],
    host1M: [] as number[],
    host64K: [] as number[],
  };
  const spawnCost = median([empty(), empty(), empty()]);
  // memory: one sampled run per chunk size, before the timed ones
  const growth = {
    host1M: [(await hostRun(MiB, -1, true)).growthMiB],
    host64K: [(await hostRun(64 * 1024, -1, true)).growthMiB],
  };
  // each run starts with no dirty pages left by the one before (sync is not timed)
  const settle = () => (process.env.BENCH_NO_SYNC ? undefined : spawnSync("sync"));
  for (let rep = 0; rep < REPS; rep++) {
    settle();
    times.cat.push(shellRun(cat) - spawnCost);
    settle();
    const a = await hostRun(MiB, rep);
    times.host1M.push(a.ms);
    settle();
    times.dd.push(shellRun(dd) - spawnCost);
    settle();
    times.raw.push(await nodeRawRun());
    settle();
    const b = await hostRun(64 * 1024, rep);
    times.host64K.push(b.ms);
  }
  rmSync(dir, { recursive: true, force: true });
  if (process.env.BENCH_VERBOSE) process.stderr.write(`${JSON.stringify(times)}\n`);
  const mibps = (ms: number) => round(1024 / (ms / 1000), 1);
  const budgetMiB = INLINE / MiB + 16;
  const maxGrowth = Math.max(...growth.host1M, ...growth.host64K);
  const figures: Figure[] = [
    {
      name: "cat > file throughput",
      value: mibps(median(times.cat)),
      unit: "MiB/s",
      note: "baseline: the same 1 GiB, from the page cache",
    },
    {
      name: "dd throughput",
      value: mibps(median(times.dd)),
      unit: "MiB/s",
      note: "baseline: the same bytes, bs=1M",
    },
    {
      name: "Node FileHandle.write throughput",
      value: mibps(median(times.raw)),
      unit: "MiB/s",
      note: "floor: same chunks, no host",
    },
    { name: "host spill throughput, 1 MiB chunks", value: mibps(median(times.host1M)), unit: "MiB/s" },
    { name: "host spill throughput, 64 KiB chunks", value: mibps(median(times.host64K)), unit: "MiB/s" },
    {
      name: "host / cat throughput, 1 MiB chunks",
      value: round(median(times.cat) / median(times.host1M), 3),
      unit: "x",
      goal: "report",
    },
    {
      name: "host / cat throughput, 64 KiB chunks",
      value: round(median(times.cat) / median(times.host64K), 3),
      unit: "x",
      goal: "report",
    },
    {
      name: "host / dd throughput, 1 MiB chunks",
      value: round(median(times.dd) / median(times.host1M), 3),
      unit: "x",
    },
    {
      name: "host / Node FileHandle.write, 1 MiB chunks",
      value: round(median(times.raw) / median(times.host1M), 3),
      unit: "x",
      note: "the host's own overhead",
    },
    {
      name: "peak RSS growth while spilling 1 GiB",
      value: round(maxGrowth, 2),
      unit: "MiB",
      goal: `<= inline + 16 MiB (${round(budgetMiB, 2)} MiB)`,
      ok: maxGrowth <= budgetMiB,
    },
    {
      name: "peak RSS of the bench process",
      value: round(peakRssMiB(), 1),
      unit: "MiB",
      note: "includes Node itself",
    },
  ];
  emit({ bench: "execute", figures });
}

await main();
