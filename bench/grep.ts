import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { rgPath } from "@vscode/ripgrep";
import { CONFIG_KEYS } from "../src/config/index.js";
import { ExecutionHost, SpillStore } from "../src/execute/index.js";
import { glob } from "../src/tools/glob/tool.js";
import { grep } from "../src/tools/grep/tool.js";
import { builtinFileTools } from "../src/tools/index.js";
import { GREP_MAX_MATCHES } from "../src/tools/shared/limits.js";
import { emit, type Figure, median, peakRssMiB, round, timeRuns } from "./lib.js";
import { peerGrep } from "./peer.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const TREE = "node_modules";
// the same files grep searches: dotfiles included, .git skipped, .gitignore honoured
const SEARCH_FLAGS = ["--hidden", "--glob=!.git", "--no-require-git", "--case-sensitive"];

/**
 * Runs rg over the same tree with the same search flags, reading its output line by line and
 * dropping it; `stopAt` stops it (kills it) once that many match records have come, as a search
 * stopped at its cap does. Resolves with the bytes read and the match records seen.
 */
function rg(args: string[], stopAt = Number.POSITIVE_INFINITY): Promise<{ bytes: number; matches: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, ["--no-config", ...args], { cwd: root, stdio: ["ignore", "pipe", "ignore"] });
    let bytes = 0;
    let matches = 0;
    let rest = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      bytes += chunk.length;
      if (stopAt === Number.POSITIVE_INFINITY) return;
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        if (line.startsWith('{"type":"match"') && ++matches >= stopAt) {
          child.stdout.destroy();
          child.kill("SIGKILL");
          return;
        }
      }
    });
    child.on("error", reject);
    child.on("close", () => resolve({ bytes, matches }));
  });
}

/** What rg alone needs for a counted first page: `rg --count` for the totals, then `rg --sort=path` to the cap. */
async function rgPage(pattern: string, cap: number): Promise<number> {
  const counted = await rg([
    "--count",
    "--with-filename",
    "--null",
    ...SEARCH_FLAGS,
    `--regexp=${pattern}`,
    "--",
    TREE,
  ]);
  if (counted.bytes === 0) return 0;
  const page = await rg(["--json", "--sort=path", ...SEARCH_FLAGS, `--regexp=${pattern}`, "--", TREE], cap);
  return page.matches;
}

/** What rg alone needs for the list of matching files: `rg --count` (sorting its lines is noise). */
const rgFiles = (pattern: string) =>
  rg(["--count", "--with-filename", "--null", ...SEARCH_FLAGS, `--regexp=${pattern}`, "--", TREE]);

/** Medians of `ours` and `base`, alternated so machine load falls on both alike (first pair dropped). */
async function alternated(
  ours: () => Promise<unknown>,
  base: () => Promise<unknown>,
  runs = 9,
): Promise<{ ours: number; base: number }> {
  const o: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    const tb = (await timeRuns(base, 1, 0))[0]!;
    const to = (await timeRuns(ours, 1, 0))[0]!;
    if (i > 0) {
      b.push(tb);
      o.push(to);
    }
  }
  return { ours: median(o), base: median(b) };
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
  const cap = GREP_MAX_MATCHES;
  // "function": far more matches than a page; a rare word: no match, so every file is read
  for (const pattern of ["function", "zqxjkwvq"]) {
    let result: Awaited<ReturnType<typeof grep>> | undefined;
    let paged = 0;
    const t = await alternated(
      async () => {
        result = await grep({ pattern, path: TREE, output_mode: "content" }, ctx);
      },
      async () => {
        paged = await rgPage(pattern, cap);
      },
    );
    const ratio = t.ours / t.base;
    const note = `${result?.matches?.length} of ${result?.totalMatches} matching lines shown; rg's sorted pass stopped after ${paged}`;
    figures.push(
      { name: `grep content ${JSON.stringify(pattern)}, median`, value: round(t.ours, 1), unit: "ms", note },
      {
        name: `rg --count + rg --sort=path to the cap ${JSON.stringify(pattern)}, median`,
        value: round(t.base, 1),
        unit: "ms",
      },
      {
        name: `grep content / rg --count + sorted to the cap, ${JSON.stringify(pattern)}`,
        value: round(ratio, 2),
        unit: "x",
        goal: "<= 1.15",
        ok: ratio <= 1.15,
      },
    );
  }
  {
    let result: Awaited<ReturnType<typeof grep>> | undefined;
    const t = await alternated(
      async () => {
        result = await grep({ pattern: "function", path: TREE }, ctx);
      },
      () => rgFiles("function"),
    );
    const ratio = t.ours / t.base;
    figures.push({
      name: 'grep files_with_matches "function" / rg --count',
      value: round(ratio, 2),
      unit: "x",
      goal: "<= 1.15",
      ok: ratio <= 1.15,
      note: `${result?.files?.length} of ${result?.filesWithMatches} files listed (each opened and checked); medians ${round(t.ours, 1)} ms vs ${round(t.base, 1)} ms`,
    });
  }
  figures.push(...(await globFigures(ctx)));
  // memory: RSS sampled during a search with no match, then during one matching nearly every line
  const few = await sampledRss(() => grep({ pattern: "zqxjkwvq", path: TREE, output_mode: "content" }, ctx));
  const many = await sampledRss(() => grep({ pattern: "e", path: TREE, output_mode: "content" }, ctx));
  const growth = many.rss - few.rss;
  figures.push({
    name: "RSS while matching nearly every line minus RSS while matching none",
    value: round(growth, 1),
    unit: "MiB",
    goal: "flat (< 8)",
    ok: growth < 8,
    note: `pattern "e": ${many.value.totalMatches} matching lines, ${many.value.matches?.length} shown`,
  });
  figures.push(...(await throughHost(ctx)));
  figures.push({ name: "peak RSS", value: round(peakRssMiB(), 1), unit: "MiB" });
  figures.push(...peerGrep(root, "function"));
  emit({ bench: "grep", figures });
}

/**
 * glob against rg listing the same files: `rg --files` (parallel, unsorted: the walk alone) and
 * `rg --files --sortr=modified` (rg's own newest-first order, which walks on one thread). glob
 * walks in parallel and stats each file; its memory holds a page of paths, not the tree.
 */
async function globFigures(ctx: Parameters<typeof glob>[1]): Promise<Figure[]> {
  const flags = [
    "--files",
    "--hidden",
    "--glob=!.git",
    "--no-require-git",
    "--type-add=g:*.js",
    "--type=g",
    "--",
    TREE,
  ];
  let listed: Awaited<ReturnType<typeof glob>> | undefined;
  const walk = await alternated(
    async () => {
      listed = await glob({ pattern: "*.js", path: TREE }, ctx);
    },
    () => rg(flags),
  );
  const sorted = await alternated(
    () => glob({ pattern: "*.js", path: TREE }, ctx),
    () => rg(["--sortr=modified", ...flags]),
  );
  const small = await sampledRss(() => glob({ pattern: "package.json", path: "bench" }, ctx));
  const all = await sampledRss(() => glob({ pattern: "*", path: TREE }, ctx));
  const growth = all.rss - small.rss;
  return [
    {
      name: 'glob "*.js" / rg --files (parallel walk, no order)',
      value: round(walk.ours / walk.base, 2),
      unit: "x",
      note: `${listed?.total} files stat'ed, ${listed?.files.length} listed; medians ${round(walk.ours, 1)} ms vs ${round(walk.base, 1)} ms`,
    },
    {
      name: 'glob "*.js" / rg --files --sortr=modified (rg\'s newest-first)',
      value: round(sorted.ours / sorted.base, 2),
      unit: "x",
      goal: "<= 1",
      ok: sorted.ours <= sorted.base,
      note: `medians ${round(sorted.ours, 1)} ms vs ${round(sorted.base, 1)} ms`,
    },
    {
      name: "glob RSS listing every file of the tree minus listing one",
      value: round(growth, 1),
      unit: "MiB",
      goal: "flat (< 8)",
      ok: growth < 8,
      note: `${all.value.total} files ordered, ${all.value.files.length} held for the page`,
    },
  ];
}

/**
 * What the permission check of every file a search would show costs: grep and glob through the
 * execution host (a path rule and the default askFiles, so each file is evaluated) over the same
 * calls made directly. Alternated, medians of 11 (the first round of each is dropped).
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
      args: { pattern: "function", path: TREE, output_mode: "content" },
      direct: () => grep({ pattern: "function", path: TREE, output_mode: "content" }, ctx),
      // the same work by rg alone: count every file, then the sorted matches up to the page
      rg: () => rgPage("function", GREP_MAX_MATCHES),
    },
    {
      tool: "glob",
      args: { pattern: "*.js", path: TREE },
      direct: () => glob({ pattern: "*.js", path: TREE }, ctx),
      rg: undefined,
    },
  ];
  try {
    for (const c of cases) {
      const hosted: number[] = [];
      const direct: number[] = [];
      const rg: number[] = [];
      let files = 0;
      for (let i = 0; i < 12; i++) {
        const b = c.rg ? await timeRuns(c.rg, 1, 0) : [0];
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
          rg.push(b[0]!);
        }
      }
      const v = (await c.direct()) as { filesWithMatches?: number; total?: number };
      files = v.filesWithMatches ?? v.total ?? 0;
      const ratio = median(hosted) / median(direct);
      figures.push({
        name: `${c.tool} ${JSON.stringify(c.args.pattern)} through the host (validation, every file's permission check, render, spill) / called directly`,
        value: round(ratio, 2),
        unit: "x",
        note: `${files} files checked; medians ${round(median(hosted), 1)} ms vs ${round(median(direct), 1)} ms`,
      });
      if (c.rg) {
        const vsRg = median(hosted) / median(rg);
        figures.push({
          name: `${c.tool} ${JSON.stringify(c.args.pattern)} through the host / rg doing the same work (rg --count, then rg --sort=path to the page)`,
          value: round(vsRg, 2),
          unit: "x",
          goal: "<= 1.15",
          ok: vsRg <= 1.15,
          note: `medians ${round(median(hosted), 1)} ms vs ${round(median(rg), 1)} ms, alternated`,
        });
      }
    }
  } finally {
    rmSync(spillBase, { recursive: true, force: true });
  }
  return figures;
}

await main();
