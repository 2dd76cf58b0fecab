import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { rgPath } from "@vscode/ripgrep";
import { grep } from "../src/tools/grep.js";
import { emit, type Figure, median, peakRssMiB, round, timeRuns } from "./lib.js";
import { peerGrep } from "./peer.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const TREE = "node_modules";
// the same files grep searches: dotfiles included, .git skipped, .gitignore honoured
const SEARCH_FLAGS = ["--hidden", "--glob=!.git", "--no-require-git", "--case-sensitive"];

/** Raw `rg --json` over the same tree with the same pattern, its output read and dropped. */
function rawRg(pattern: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      rgPath,
      ["--no-config", "--json", ...SEARCH_FLAGS, `--regexp=${pattern}`, "--", TREE],
      {
        cwd: root,
        stdio: ["ignore", "pipe", "ignore"],
      },
    );
    let bytes = 0;
    child.stdout.on("data", (c: Buffer) => {
      bytes += c.length;
    });
    child.on("error", reject);
    child.on("close", () => resolve(bytes));
  });
}

/** Highest RSS seen (sampled every 5 ms, after a GC) while `fn` runs. */
async function sampledRss<T>(fn: () => Promise<T>): Promise<{ rss: number; value: T }> {
  (globalThis as { gc?: () => void }).gc?.();
  let max = process.memoryUsage().rss;
  const timer = setInterval(() => {
    max = Math.max(max, process.memoryUsage().rss);
  }, 5);
  try {
    const value = await fn();
    max = Math.max(max, process.memoryUsage().rss);
    return { rss: max / 1024 / 1024, value };
  } finally {
    clearInterval(timer);
  }
}

async function main() {
  const ctx = { cwd: root, workspace: root, config: {}, signal: new AbortController().signal };
  const figures: Figure[] = [];
  // "function": far more matches than the cap; a rare word: no match, so every file is read
  for (const pattern of ["function", "zqxjkwvq"]) {
    const ours: number[] = [];
    const raw: number[] = [];
    let rawBytes = 0;
    let result: Awaited<ReturnType<typeof grep>> | undefined;
    // alternated, so machine load falls on both alike
    for (let i = 0; i < 9; i++) {
      const r = await timeRuns(
        async () => {
          rawBytes = await rawRg(pattern);
        },
        1,
        0,
      );
      const o = await timeRuns(
        async () => {
          result = await grep({ pattern, path: TREE }, ctx);
        },
        1,
        0,
      );
      if (i > 0) {
        raw.push(r[0]!);
        ours.push(o[0]!);
      }
    }
    const ratio = median(ours) / median(raw);
    const note = `${result?.matches.length} of ${result?.totalMatches} matches returned; raw rg wrote ${round(rawBytes / 1e6, 1)} MB`;
    figures.push(
      { name: `grep ${JSON.stringify(pattern)}, median`, value: round(median(ours), 1), unit: "ms", note },
      { name: `raw rg --json ${JSON.stringify(pattern)}, median`, value: round(median(raw), 1), unit: "ms" },
      {
        name: `grep / raw rg, ${JSON.stringify(pattern)}`,
        value: round(ratio, 2),
        unit: "x",
        goal: "<= 1.15",
        ok: ratio <= 1.15,
      },
    );
  }
  // memory: RSS sampled during a search with no match, then during one matching nearly every line
  const few = await sampledRss(() => grep({ pattern: "zqxjkwvq", path: TREE }, ctx));
  const many = await sampledRss(() => grep({ pattern: "e", path: TREE }, ctx));
  const growth = many.rss - few.rss;
  figures.push(
    {
      name: "RSS while matching nearly every line minus RSS while matching none",
      value: round(growth, 1),
      unit: "MiB",
      goal: "flat (< 8)",
      ok: growth < 8,
      note: `pattern "e": ${many.value.totalMatches} matching lines, ${many.value.matches.length} returned`,
    },
    { name: "peak RSS", value: round(peakRssMiB(), 1), unit: "MiB" },
  );
  figures.push(...peerGrep(root, "function"));
  emit({ bench: "grep", figures });
}

await main();
