import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { rgPath } from "@vscode/ripgrep";
import { CONFIG_KEYS } from "../src/config/index.js";
import { ExecutionHost, SpillStore } from "../src/execute/index.js";
import { glob } from "../src/tools/glob.js";
import { grep } from "../src/tools/grep.js";
import { builtinFileTools } from "../src/tools/index.js";
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
  figures.push(...(await throughHost(ctx)));
  figures.push(...peerGrep(root, "function"));
  emit({ bench: "grep", figures });
}

/**
 * What the permission check of every file a search would show costs: grep and glob through the
 * execution host (a path rule and the default askFiles, so each file is evaluated) over the same
 * calls made directly. Alternated, medians of 7.
 */
async function throughHost(ctx: Parameters<typeof grep>[1]): Promise<Figure[]> {
  const spillBase = mkdtempSync(path.join(tmpdir(), "tp-bench-spill-"));
  const config: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(CONFIG_KEYS))
    if (spec.kind === "run-time") config[key] = spec.default;
  const host = new ExecutionHost({
    tools: () => ({ tools: builtinFileTools().map((tool) => ({ tool, namespace: "builtin" })) }),
    config,
    policy: {
      rules: [{ rule: { effect: "deny", path: "secrets/**" }, origin: "bench rule" }],
      defaultEffect: "allow",
      workspaceBoundary: true,
      askFiles: CONFIG_KEYS["permissions.askFiles"].default,
      caseInsensitive: false,
    },
    cwd: root,
    workspace: root,
    spill: new SpillStore(spillBase, "bench"),
  });
  const figures: Figure[] = [];
  const cases = [
    {
      tool: "grep",
      args: { pattern: "function", path: TREE },
      direct: () => grep({ pattern: "function", path: TREE }, ctx),
    },
    {
      tool: "glob",
      args: { pattern: "*.js", path: TREE },
      direct: () => glob({ pattern: "*.js", path: TREE }, ctx),
    },
  ];
  try {
    for (const c of cases) {
      const hosted: number[] = [];
      const direct: number[] = [];
      let files = 0;
      for (let i = 0; i < 8; i++) {
        const d = await timeRuns(c.direct, 1, 0);
        const h = await timeRuns(
          async () => {
            const r = await host.call({ tool: c.tool, args: c.args });
            if (r.isError) throw new Error(JSON.stringify(r.content));
          },
          1,
          0,
        );
        if (i > 0) {
          direct.push(d[0]!);
          hosted.push(h[0]!);
        }
      }
      const v = (await c.direct()) as { filesWithMatches?: number; files?: string[]; more?: number };
      files = v.filesWithMatches ?? (v.files?.length ?? 0) + (v.more ?? 0);
      const ratio = median(hosted) / median(direct);
      figures.push({
        name: `${c.tool} ${JSON.stringify(c.args.pattern)} through the host (validation, every file's permission check, render, spill) / called directly`,
        value: round(ratio, 2),
        unit: "x",
        note: `${files} files checked; medians ${round(median(hosted), 1)} ms vs ${round(median(direct), 1)} ms`,
      });
    }
  } finally {
    rmSync(spillBase, { recursive: true, force: true });
  }
  return figures;
}

await main();
