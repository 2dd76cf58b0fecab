import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Toolplane } from "../src/assemble/index.js";
import { type AnyTool, defineTool } from "../src/declare/index.js";
import { projectTool } from "../src/declare/project.js";
import { GLOBAL_LAYER } from "../src/register/index.js";
import { emit, type Figure, median, peakRssMiB, round } from "./lib.js";
import { makeTool } from "./tool-set.js";

/**
 * The library's cold path: Toolplane.open, 10,000 tools registered, and the first catalog (every
 * tool resident: defer.mode=off), in a process that has done none of it before, so nothing is
 * memoised or compiled yet. Baseline: JSON.stringify of the same 10,000 projections, in that same
 * process. Each sample is a new process; CPU time (user + system) so that waiting for a core on a
 * shared machine is not counted. Also: what deferral planning costs when it is off.
 */
const TOOLS = 10_000;
const SAMPLES = 7;

const cpuMs = (fn: () => unknown): number => {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
const cpuMsAsync = async (fn: () => Promise<unknown>): Promise<number> => {
  const c0 = process.cpuUsage();
  await fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};

function declare(i: number, salt = ""): AnyTool {
  const p = makeTool(i, salt);
  return defineTool({
    name: p.name,
    description: p.description,
    parameters: p.parameters,
    output: { schema: { type: "object" }, render: () => "" },
    execute: () => ({}),
  });
}

interface Sample {
  baseline: number;
  define: number;
  open: number;
  firstCatalog: number;
  catalogAlone: number;
  secondCatalog: number;
  oneChanged: number;
  firstChange: number;
  planOff: number;
  planOffAgain: number;
  planOffNoTools: number;
  onUnchanged: number;
  onChanged: number;
  bytes: number;
  peakRss: number;
}

/** One sample, in this (new) process. */
async function sample(): Promise<Sample> {
  const root = mkdtempSync(path.join(os.tmpdir(), "tp-bench-open-"));
  try {
    const repo = path.join(root, "repo");
    mkdirSync(path.join(repo, ".git"), { recursive: true });
    const env = { HOME: path.join(root, "home"), PATH: "" };
    const projections = Array.from({ length: TOOLS }, (_, i) => makeTool(i));
    // the baseline, also cold: the first stringify of these objects in this process
    const baseline = cpuMs(() => JSON.stringify(projections));
    let tools: AnyTool[] = [];
    const define = cpuMs(() => {
      tools = Array.from({ length: TOOLS }, (_, i) => declare(i));
    });
    let plane: Toolplane | undefined;
    let handle: { changed(): void } | undefined;
    const set = ["defer.mode=off", "catalog.budget.chars=100000000"];
    const open = await cpuMsAsync(async () => {
      plane = await Toolplane.open({ cwd: repo, env, set, bundledSkills: null });
      handle = plane.tools.register(GLOBAL_LAYER, { name: "bench", enumerate: () => tools });
    });
    // the first catalog, then the JSON.stringify of its tools that counts their bytes (the same
    // serialisation a harness makes of any tool list it sends): timed apart, and the goal's
    // figure is their sum, as it was when the two were timed as one
    let wire: unknown;
    const catalogAlone = await cpuMsAsync(async () => {
      wire = (await plane!.catalog("anthropic")).tools;
    });
    let bytes = 0;
    const requestJson = cpuMs(() => {
      bytes = JSON.stringify(wire).length;
    });
    const firstCatalog = catalogAlone + requestJson;
    if (projectTool(tools[0]!).name !== "tool_0") throw new Error("the tools came back wrong");
    // an unchanged set re-rendered: what every later turn pays
    const secondCatalog = await cpuMsAsync(() => plane!.catalog("anthropic"));
    // one tool's description changed (what a server's list_changed with one edit brings): the
    // provider says so, and the next catalog is timed. The first such turn in the process is
    // reported apart (it compiles the paths a change takes); the figure is the median of 21 turns
    // after five more and a full collection, so the first catalog's garbage (a 10,000-tool heap
    // collected in the background, which CPU time counts) is not charged to them.
    const change = async (r: number) => {
      tools = tools.slice();
      tools[4321] = declare(4321, ` v${r}`);
      handle!.changed();
      return cpuMsAsync(() => plane!.catalog("anthropic"));
    };
    const firstChange = await change(0);
    for (let r = 1; r < 6; r++) await change(r);
    (globalThis as { gc?: () => void }).gc?.();
    const changes: number[] = [];
    for (let r = 6; r < 27; r++) changes.push(await change(r));
    const oneChanged = median(changes);
    await plane!.close();
    const deferred = await deferralOn(repo, env, tools);
    // planning alone, off, on a new session: 10,000 tools against none (the cost of "nothing")
    const [planOff, planOffAgain] = await planCost(repo, env, tools);
    const [planOffNoTools] = await planCost(repo, env, []);
    return {
      baseline,
      define,
      open,
      firstCatalog,
      catalogAlone,
      secondCatalog,
      oneChanged,
      firstChange,
      planOff,
      planOffAgain,
      planOffNoTools,
      onUnchanged: deferred.unchanged,
      onChanged: deferred.changed,
      bytes,
      peakRss: peakRssMiB(),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * The same 10,000 tools with deferral on (the default threshold mode, which defers them; the
 * provider's native form): CPU ms of a catalog of the unchanged set, and of one after a tool
 * changed in place, each the median of 21 turns after five and a full collection.
 */
async function deferralOn(
  repo: string,
  env: NodeJS.ProcessEnv,
  start: AnyTool[],
): Promise<{ unchanged: number; changed: number }> {
  let tools = start;
  const plane = await Toolplane.open({ cwd: repo, env, bundledSkills: null });
  const handle = plane.tools.register(GLOBAL_LAYER, { name: "bench", enumerate: () => tools });
  try {
    const first = await plane.catalog("anthropic");
    if (first.deferred.length < 9000) throw new Error("deferral did not turn on");
    const turns = async (edit: boolean) => {
      const out: number[] = [];
      for (let r = 0; r < 27; r++) {
        if (r === 5) (globalThis as { gc?: () => void }).gc?.();
        if (edit) {
          tools = tools.slice();
          tools[4321] = declare(4321, ` on ${r}`);
          handle.changed();
        }
        const ms = await cpuMsAsync(() => plane.catalog("anthropic"));
        if (r > 5) out.push(ms);
      }
      return median(out);
    };
    return { unchanged: await turns(false), changed: await turns(true) };
  } finally {
    await plane.close();
  }
}

/**
 * CPU ms of `modelTools()` (snapshot + visibility + plan, no render) on a fresh Toolplane, mode
 * off: the first plan of the set (every tool reported as arriving), then the median of 20 more of
 * the unchanged set (what each later turn pays).
 */
async function planCost(repo: string, env: NodeJS.ProcessEnv, tools: AnyTool[]): Promise<[number, number]> {
  const plane = await Toolplane.open({ cwd: repo, env, set: ["defer.mode=off"], bundledSkills: null });
  plane.tools.register(GLOBAL_LAYER, { name: "bench", enumerate: () => tools });
  await plane.toolSnapshot();
  await plane.visibleTools();
  const first = await cpuMsAsync(() => plane.modelTools());
  const again: number[] = [];
  for (let i = 0; i < 20; i++) again.push(await cpuMsAsync(() => plane.modelTools()));
  await plane.close();
  return [first, median(again)];
}

function main(): void {
  const samples: Sample[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const r = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), "--sample"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    if (r.status !== 0) throw new Error(`a sample failed (exit ${r.status})`);
    samples.push(JSON.parse(r.stdout.trim().split("\n").at(-1)!));
  }
  const m = (k: keyof Sample) => median(samples.map((s) => s[k]));
  const ratio = (k: keyof Sample) => median(samples.map((s) => s[k] / s.baseline));
  const cold = median(samples.map((s) => (s.open + s.firstCatalog) / s.baseline));
  const withDefine = median(samples.map((s) => (s.define + s.open + s.firstCatalog) / s.baseline));
  const figures: Figure[] = [
    {
      name: "baseline: JSON.stringify of the 10,000 projections, first in a new process",
      value: round(m("baseline"), 1),
      unit: "ms",
      note: "CPU ms",
    },
    {
      name: "Toolplane.open + 10,000 tools registered + first catalog (defer.mode=off), cold / baseline",
      value: round(cold, 1),
      unit: "x",
      goal: "<= 8",
      ok: cold <= 8,
      note: `open ${round(m("open"), 1)} ms, first catalog ${round(m("firstCatalog"), 1)} ms CPU; ${round(m("bytes") / 1e6, 1)} MB of tools`,
    },
    {
      name: "the same without the JSON.stringify of the catalog's tools (toolplane's part alone), cold / baseline",
      value: round(median(samples.map((s) => (s.open + s.catalogAlone) / s.baseline)), 1),
      unit: "x",
      note: `first catalog alone ${round(m("catalogAlone"), 1)} ms CPU`,
    },
    {
      name: "the same with the 10,000 defineTool calls, cold / baseline",
      value: round(withDefine, 1),
      unit: "x",
      note: `defineTool ${round(m("define"), 1)} ms CPU`,
    },
    {
      name: "second catalog, unchanged tools / baseline",
      value: round(ratio("secondCatalog"), 2),
      unit: "x",
      note: `${round(m("secondCatalog"), 2)} ms CPU`,
    },
    {
      name: "one tool's description changed among 10,000, the next catalog (registry merge, visibility, plan, render)",
      value: round(m("oneChanged"), 2),
      unit: "ms",
      goal: "<= 2",
      ok: m("oneChanged") <= 2,
      note: `CPU ms, median of 21 turns in each sample, after a full collection; ${round(ratio("oneChanged"), 2)}x baseline; the first change in a process ${round(m("firstChange"), 1)} ms`,
    },
    {
      name: "deferral on (threshold, all 10,000 deferred, Anthropic's native form): a catalog of the unchanged set",
      value: round(m("onUnchanged"), 2),
      unit: "ms",
      note: "CPU ms, median of 21 turns in each sample, after a full collection",
    },
    {
      name: "deferral on: one tool's description changed among 10,000, the next catalog",
      value: round(m("onChanged"), 2),
      unit: "ms",
      goal: "<= 2",
      ok: m("onChanged") <= 2,
      note: "CPU ms, median of 21 turns in each sample, after a full collection",
    },
    {
      name: "deferral planning, defer.mode=off, 10,000 new tools: first plan (snapshot read + plan, no render)",
      value: round(m("planOff"), 2),
      unit: "ms",
      note: `CPU ms, ${round(ratio("planOff"), 2)}x baseline: each tool reported as arriving; ${round(m("planOffNoTools"), 2)} ms with no tools registered`,
    },
    {
      name: "deferral planning, defer.mode=off, the same 10,000 tools again / baseline",
      value: round(ratio("planOffAgain"), 3),
      unit: "x",
      goal: "~0 (nothing)",
      ok: ratio("planOffAgain") <= 0.05,
      note: `${round(m("planOffAgain"), 2)} CPU ms a turn`,
    },
    { name: "peak RSS of a sample process, median", value: round(m("peakRss"), 1), unit: "MiB" },
  ];
  emit({ bench: "open", figures });
}

if (process.argv[2] === "--sample") process.stdout.write(`${JSON.stringify(await sample())}\n`);
else main();
