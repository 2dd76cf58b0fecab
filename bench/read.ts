import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { clearIndexCache, peekIndex } from "../src/tools/read/index-cache.js";
import { readPath } from "../src/tools/read/read-path.js";
import { emit, type Figure, median, peakRssMiB, progress, round, timeRuns } from "./lib.js";
import { peerRead } from "./peer.js";

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** ~1 MiB of source-like lines of varied length (8 to 120 bytes), repeated to fill the file. */
function sampleBlock(): { block: Buffer; lines: number } {
  const out: string[] = [];
  let bytes = 0;
  let seed = 42;
  for (let i = 0; bytes < MiB - 200; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const width = 8 + (seed % 113);
    const line = `  const v${i} = call(${i}, "${"abcdefghij".repeat(12)}");`.slice(0, width);
    out.push(line);
    bytes += line.length + 1;
  }
  return { block: Buffer.from(`${out.join("\n")}\n`), lines: out.length };
}

function writeFile(file: string, size: number, block: Buffer): number {
  const fd = openSync(file, "w");
  let written = 0;
  while (written + block.length <= size) {
    writeSync(fd, block);
    written += block.length;
    progress(`writing ${file}: ${Math.round(written / MiB)} MiB`);
  }
  closeSync(fd);
  return written;
}

/** The reader DeepSeek Harness and OpenCode have: on every call, count lines from the start. */
function naiveRead(file: string, offset: number, limit: number): string[] {
  const fd = openSync(file, "r");
  const buf = Buffer.allocUnsafe(MiB);
  let line = 1;
  let pos = 0;
  const lines: string[] = [];
  let carry = "";
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) return lines;
      let from = 0;
      for (let nl = buf.indexOf(10, 0); nl !== -1 && nl < n; nl = buf.indexOf(10, from)) {
        if (line >= offset) {
          lines.push(carry + buf.toString("utf8", from, nl));
          carry = "";
          if (lines.length === limit) return lines;
        }
        line++;
        from = nl + 1;
      }
      if (line >= offset) carry += buf.toString("utf8", from, n);
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
}

/** The baseline runs in its own process, so its buffers do not count in the reader's peak RSS. */
function naiveInChild(file: string, offset: number, limit: number): { times: number[]; page: string } {
  const args = [fileURLToPath(import.meta.url), "--naive", file, String(offset), String(limit)];
  const r = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 64 * MiB });
  if (r.status !== 0) throw new Error(`the naive reader failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function naiveChild(file: string, offset: number, limit: number): Promise<void> {
  const times = await timeRuns(() => naiveRead(file, offset, limit), 5, 1);
  process.stdout.write(JSON.stringify({ times, page: naiveRead(file, offset, limit).join("\n") }));
}

/** Wall time of a process in ms (spawnSync), median of `reps` after `warmups`. */
function processMs(cmd: string, args: string[], reps: number, warmups = 1, env?: NodeJS.ProcessEnv): number {
  const times: number[] = [];
  for (let i = 0; i < reps + warmups; i++) {
    const t0 = performance.now();
    const r = spawnSync(cmd, args, { stdio: "ignore", ...(env ? { env } : {}) });
    if (r.status !== 0) throw new Error(`${cmd} failed`);
    if (i >= warmups) times.push(performance.now() - t0);
  }
  return median(times);
}

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "src", "cli", "main.cjs");

/**
 * `toolplane call read` of the page at `deep` in big.txt, each in a new process, alternated 5
 * times: with no index on disk (the cache folder emptied first), with the index the previous
 * process left, the first page (the floor: start-up and a read that scans nothing), and
 * `node -e 0`.
 */
function cliReads(dir: string, deep: number): { first: number; second: number; top: number; node: number } {
  const cache = path.join(dir, "cache");
  const env = { PATH: process.env.PATH ?? "", HOME: dir, TOOLPLANE_CACHE_DIR: cache };
  const args = [
    CLI,
    "call",
    "read",
    "--cwd",
    dir,
    "--args",
    JSON.stringify({ path: "big.txt", offset: deep }),
  ];
  const top = [CLI, "call", "read", "--cwd", dir, "--args", JSON.stringify({ path: "big.txt" })];
  const first: number[] = [];
  const second: number[] = [];
  const firstPage: number[] = [];
  const node: number[] = [];
  for (let i = 0; i < 5; i++) {
    progress(`read: toolplane call read in new processes, round ${i + 1}/5`);
    rmSync(cache, { recursive: true, force: true });
    first.push(processMs(process.execPath, args, 1, 0, env));
    second.push(processMs(process.execPath, args, 1, 0, env));
    firstPage.push(processMs(process.execPath, top, 1, 0, env));
    node.push(processMs(process.execPath, ["-e", "0"], 1, 0, env));
  }
  return { first: median(first), second: median(second), top: median(firstPage), node: median(node) };
}

/**
 * Peak RSS of `toolplane call read` in new processes against `node -e 0`, 5 rounds alternated,
 * each read with no index on disk (the deep page scans 90% of the file): each process reports its
 * own peak (getrusage's maxrss, printed at exit by a preload module both sides load).
 */
function cliPeaks(dir: string, deep: number): { deep: number; top: number; node: number } {
  const cache = path.join(dir, "cache");
  const env = { PATH: process.env.PATH ?? "", HOME: dir, TOOLPLANE_CACHE_DIR: cache };
  const preload = path.join(dir, "maxrss.mjs");
  writeFileSync(
    preload,
    'process.on("exit", () => process.stderr.write("\\nmaxrss " + process.resourceUsage().maxRSS + "\\n"));\n',
  );
  const peak = (args: string[]): number => {
    const r = spawnSync(process.execPath, ["--import", pathToFileURL(preload).href, ...args], {
      encoding: "utf8",
      env,
    });
    const kib = /maxrss (\d+)\s*$/.exec(r.stderr ?? "")?.[1];
    if (r.status !== 0 || kib === undefined)
      throw new Error(`read peak: ${args.join(" ")} failed: ${r.stderr}`);
    return Number(kib) / 1024;
  };
  const read = (args: object) => [CLI, "call", "read", "--cwd", dir, "--args", JSON.stringify(args)];
  const deepPeaks: number[] = [];
  const topPeaks: number[] = [];
  const nodePeaks: number[] = [];
  for (let i = 0; i < 5; i++) {
    progress(`read: peak RSS of new processes, round ${i + 1}/5`);
    rmSync(cache, { recursive: true, force: true });
    deepPeaks.push(peak(read({ path: "big.txt", offset: deep })));
    rmSync(cache, { recursive: true, force: true });
    topPeaks.push(peak(read({ path: "big.txt", limit: 1 })));
    nodePeaks.push(peak(["-e", "0"]));
  }
  return { deep: median(deepPeaks), top: median(topPeaks), node: median(nodePeaks) };
}

/** Writes the test files in a child process, so that their generation is not in the reader's peak RSS. */
function generate(dir: string): { big: string; small: string; bigSize: number; totalLines: number } {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--generate", dir], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (r.status !== 0) throw new Error("generating the test files failed");
  return JSON.parse(r.stdout);
}

function generateChild(dir: string): void {
  const { block, lines: perBlock } = sampleBlock();
  const big = path.join(dir, "big.txt");
  const small = path.join(dir, "small.txt");
  const bigSize = writeFile(big, GiB, block);
  writeFile(small, MiB, block);
  const totalLines = (bigSize / block.length) * perBlock;
  process.stdout.write(JSON.stringify({ big, small, bigSize, totalLines }));
}

async function main() {
  // in this process no index is kept on disk: each cold read below scans (cliReads has its own)
  process.env.TOOLPLANE_CACHE_DIR = "";
  const dir = mkdtempSync(path.join(tmpdir(), "tp-bench-read-"));
  try {
    const { big, small, bigSize, totalLines } = generate(dir);
    // bring the file into the page cache so every reader below starts from the same place
    processMs("cat", [big], 0);
    const ctx = { cwd: dir, workspace: dir, config: {} };

    // 1. first page: the cost must not depend on the file's size
    // alternated, so that JIT warm-up and machine load fall on both sides alike
    const firstSmall: number[] = [];
    const firstBig: number[] = [];
    for (let i = 0; i < 43; i++) {
      const a = await timeRuns(() => readPath({ path: "small.txt" }, ctx), 1, 0);
      const b = await timeRuns(() => readPath({ path: "big.txt" }, ctx), 1, 0);
      if (i >= 3) {
        firstSmall.push(a[0]!);
        firstBig.push(b[0]!);
      }
    }
    const firstRatio = median(firstBig) / median(firstSmall);

    // 2. cold page at 90% depth: scanning speed against wc -l over the same bytes, alternated
    // (a cold read, a wc -l, an empty process, in turn) so that load falls on both alike; no
    // index on disk here (TOOLPLANE_CACHE_DIR is empty), so each read scans
    const deep = Math.floor(totalLines * 0.9);
    const cold: number[] = [];
    const wc: number[] = [];
    const empty: number[] = [];
    let scanned = 0;
    for (let i = 0; i < 8; i++) {
      clearIndexCache();
      const t0 = performance.now();
      const v = await readPath({ path: "big.txt", offset: deep }, ctx);
      cold.push(performance.now() - t0);
      if (v.kind !== "file" || v.lines.length === 0) throw new Error("deep page came back wrong");
      scanned = peekIndex(big)?.scannedBytes ?? 0;
      wc.push(processMs("wc", ["-l", big], 1, 0));
      empty.push(processMs("true", [], 1, 0));
    }
    const ourBps = scanned / (median(cold) / 1000);
    const wcMs = median(wc) - median(empty);
    const wcBps = bigSize / (wcMs / 1000);

    // 2b. the same page as a person or a harness asks for it: `toolplane call read` in a new
    // process, first with no index anywhere (it scans, and keeps the index on disk), then again
    // in another new process (it reads the index from disk), beside an empty Node process
    const cli = cliReads(dir, deep);
    const peaks = cliPeaks(dir, deep);

    // 3. the same page, warm, against a reader that scans from the start every call
    const warm = await timeRuns(() => readPath({ path: "big.txt", offset: deep }, ctx), 50, 2);
    // other pages inside the indexed part: a lookup in the counts plus one chunk read each
    let probe = 0;
    const indexed = await timeRuns(
      () => {
        probe = (probe + 7919) % 1000;
        return readPath({ path: "big.txt", offset: Math.floor(totalLines * (0.3 + probe / 1700)) }, ctx);
      },
      50,
      2,
    );
    const check = await readPath({ path: "big.txt", offset: deep }, ctx);
    const pageLines = check.kind === "file" ? check.lines.length : 0;
    const naive = naiveInChild(big, deep, pageLines);
    const same = check.kind === "file" && check.lines.join("\n") === naive.page;
    if (!same) throw new Error("the indexed page differs from the naive reader's page");

    const figures: Figure[] = [
      { name: "first page, 1 MiB file, median", value: round(median(firstSmall), 3), unit: "ms" },
      { name: "first page, 1 GiB file, median", value: round(median(firstBig), 3), unit: "ms" },
      {
        name: "first page: 1 GiB / 1 MiB",
        value: round(firstRatio, 2),
        unit: "x",
        goal: "<= 1.2",
        ok: firstRatio <= 1.2,
      },
      {
        name: "cold page at 90% depth, median",
        value: round(median(cold), 1),
        unit: "ms",
        note: `${round(scanned / MiB, 0)} MiB scanned`,
      },
      { name: "cold scan speed", value: round(ourBps / 1e9, 2), unit: "GB/s" },
      {
        name: "wc -l speed (process time minus an empty process, alternated with the reads above)",
        value: round(wcBps / 1e9, 2),
        unit: "GB/s",
      },
      {
        name: "cold scan / wc -l",
        value: round(ourBps / wcBps, 2),
        unit: "x",
        goal: ">= 0.5",
        ok: ourBps / wcBps >= 0.5,
      },
      {
        name: "warm page at 90% depth, median",
        value: round(median(warm), 3),
        unit: "ms",
        goal: "<= 5",
        ok: median(warm) <= 5,
      },
      {
        name: "warm page elsewhere in the indexed part (random offsets 30-88%), median",
        value: round(median(indexed), 3),
        unit: "ms",
        goal: "<= 5",
        ok: median(indexed) <= 5,
      },
      {
        name: "`toolplane call read`, page at 90% depth, a new process with no index on disk, median",
        value: round(cli.first, 1),
        unit: "ms",
        note: `node -e 0 ${round(cli.node, 1)} ms in the same rounds`,
      },
      {
        name: "`toolplane call read`, same page, a second new process (index read from disk), median",
        value: round(cli.second, 1),
        unit: "ms",
        note: `${round(cli.second / cli.node, 2)}x node -e 0; ${round(cli.first / cli.second, 1)}x faster than the first process`,
      },
      {
        name: "`toolplane call read`, first page, a new process, median",
        value: round(cli.top, 1),
        unit: "ms",
      },
      {
        name: "`toolplane call read`, page at 90% depth with no index on disk: peak RSS over `node -e 0` (medians of 5 new processes)",
        value: round(peaks.deep - peaks.node, 1),
        unit: "MiB",
        goal: "<= 24",
        ok: peaks.deep - peaks.node <= 24,
        note: `${round(peaks.deep, 1)} MiB against ${round(peaks.node, 1)} MiB`,
      },
      {
        name: "`toolplane call read` of one line: peak RSS over `node -e 0` (the floor: loading the CLI and the tools)",
        value: round(peaks.top - peaks.node, 1),
        unit: "MiB",
      },
      {
        name: "page at 90% depth in a second process / first page in a new process",
        value: round(cli.second / cli.top, 2),
        unit: "x",
        goal: "<= 1.2 (the index survives: deep costs what the first page does)",
        ok: cli.second / cli.top <= 1.2,
      },
      { name: "scan-from-start reader, same page, median", value: round(median(naive.times), 1), unit: "ms" },
      {
        name: "scan-from-start / warm",
        value: round(median(naive.times) / median(warm), 0),
        unit: "x",
        goal: ">= 100",
        ok: median(naive.times) / median(warm) >= 100,
      },
      {
        name: "peak RSS",
        value: round(peakRssMiB(), 1),
        unit: "MiB",
        goal: "<= 64",
        ok: peakRssMiB() <= 64,
      },
    ];
    figures.push(...peerRead(big, small, deep));
    emit({ bench: "read", figures });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--generate") generateChild(process.argv[3]!);
else if (process.argv[2] === "--naive")
  await naiveChild(process.argv[3]!, Number(process.argv[4]), Number(process.argv[5]));
else await main();
