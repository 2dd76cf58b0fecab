import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { emit, type Figure, median, progress, round } from "./lib.js";

/**
 * Start-up of the CLI: each command as a ratio to `node -e 0` measured in the same run, the runs
 * alternated (one of each in turn, 20 rounds) so that machine load falls on all of them alike.
 * The commands run in an empty git folder with a home of their own: no skills, no MCP servers.
 */
const ROUNDS = 20;
const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(here, "..", "src", "cli", "main.cjs");

interface Case {
  name: string;
  args: string[];
  goal?: number;
  env?: Record<string, string>;
}

function main(): void {
  const root = mkdtempSync(path.join(os.tmpdir(), "tp-bench-cli-"));
  try {
    const repo = path.join(root, "repo");
    const home = path.join(root, "home");
    mkdirSync(path.join(repo, ".git"), { recursive: true });
    mkdirSync(home, { recursive: true });
    writeFileSync(path.join(repo, "notes.txt"), "one\ntwo\nthree\n".repeat(100));
    const env = { HOME: home, PATH: process.env.PATH ?? "", XDG_CACHE_HOME: path.join(home, ".cache") };
    const cases: Case[] = [
      { name: "node -e 0 (baseline)", args: ["-e", "0"] },
      { name: "toolplane --version", args: [CLI, "--version"], goal: 1.5 },
      { name: "toolplane --help", args: [CLI, "--help"] },
      { name: "toolplane catalog (empty git folder)", args: [CLI, "catalog"], goal: 2.5 },
      {
        name: "toolplane call read",
        args: [CLI, "call", "read", "--args", '{"path": "notes.txt", "limit": 20}'],
        goal: 2.5,
      },
      // the CLI compiles its code with a V8 code cache kept from an earlier run (src/cli/code-cache.ts);
      // the unmeasured first round makes it, as a user's first run of each command does
      {
        name: "toolplane catalog, no code cache (TOOLPLANE_CACHE_DIR empty)",
        args: [CLI, "catalog"],
        env: { TOOLPLANE_CACHE_DIR: "" },
      },
    ];
    const times = cases.map(() => [] as number[]);
    const load = os.loadavg()[0]!;
    // one unmeasured round warms the page cache for every file each command loads
    for (let round = -1; round < ROUNDS; round++) {
      progress(`cli: round ${round + 1}/${ROUNDS}`);
      for (const [i, c] of cases.entries()) {
        const t0 = performance.now();
        const r = spawnSync(process.execPath, c.args, {
          cwd: repo,
          env: { ...env, ...c.env },
          stdio: ["ignore", "ignore", "pipe"],
        });
        const ms = performance.now() - t0;
        if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stderr}`);
        if (round >= 0) times[i]!.push(ms);
      }
    }
    const base = median(times[0]!);
    const figures: Figure[] = [
      {
        name: cases[0]!.name,
        value: round(base, 1),
        unit: "ms",
        note: "every process with only PATH, HOME and XDG_CACHE_HOME set: NODE_OPTIONS or NODE_EXTRA_CA_CERTS would add the same start-up cost to all of them",
      },
    ];
    for (const [i, c] of cases.entries()) {
      if (i === 0) continue;
      const ms = median(times[i]!);
      const ratio = ms / base;
      figures.push({
        name: `${c.name} / node -e 0`,
        value: round(ratio, 2),
        unit: "x",
        note: `median ${round(ms, 1)} ms`,
        ...(c.goal !== undefined ? { goal: `<= ${c.goal}`, ok: ratio <= c.goal } : {}),
      });
    }
    figures.push({
      name: `load average when started (${os.cpus().length} cores)`,
      value: round(load, 2),
      unit: "",
    });
    emit({ bench: "cli", figures });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main();
