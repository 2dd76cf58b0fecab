import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { SkillDiscovery, type SkillsView, SkillWatcher } from "../src/discover/index.js";
import { emit, median, peakRssMiB, percentile, round } from "./lib.js";

const TOTAL = 10_000;
const BODY = `${"Step by step instructions for the task, with examples and caveats. ".repeat(30)}\n`;

function skillText(name: string, version = 1): string {
  return `---\nname: ${name}\ndescription: Does ${name} things, version ${version}. Use when the task mentions ${name}.\nlicense: MIT\n---\n\n# ${name}\n\n${BODY}`;
}

/** 10,000 skills over seven roots (project, custom, user), one in five a flat file. */
function buildTree(base: string) {
  const repo = path.join(base, "repo");
  const home = path.join(base, "home");
  mkdirSync(path.join(repo, ".git"), { recursive: true });
  const roots = [
    path.join(repo, ".toolplane", "skills"),
    path.join(repo, ".agents", "skills"),
    path.join(repo, ".claude", "skills"),
    path.join(base, "custom"),
    path.join(home, ".config", "toolplane", "skills"),
    path.join(home, ".agents", "skills"),
    path.join(home, ".claude", "skills"),
  ];
  for (let i = 0; i < TOTAL; i++) {
    const root = roots[i % roots.length]!;
    const name = `skill-${String(i).padStart(5, "0")}`;
    if (i % 5 === 4) {
      mkdirSync(root, { recursive: true });
      writeFileSync(path.join(root, `${name}.md`), skillText(name));
    } else {
      mkdirSync(path.join(root, name), { recursive: true });
      writeFileSync(path.join(root, name, "SKILL.md"), skillText(name));
    }
  }
  return { repo, home, roots, custom: roots[3]! };
}

/** Baseline: list each root and read every skill file whole, no parsing. */
function naiveRead(roots: string[]): number {
  let bytes = 0;
  for (const root of roots) {
    for (const e of readdirSync(root, { withFileTypes: true })) {
      const file = e.isDirectory() ? path.join(root, e.name, "SKILL.md") : path.join(root, e.name);
      bytes += readFileSync(file).length;
    }
  }
  return bytes;
}

async function main() {
  const base = path.join(tmpdir(), `tp-bench-skills-${process.pid}`);
  rmSync(base, { recursive: true, force: true });
  let mark = performance.now();
  const phase = (label: string) => {
    process.stderr.write(`${label}: ${round(performance.now() - mark, 0)} ms\n`);
    mark = performance.now();
  };
  const tree = buildTree(base);
  phase("build tree");
  const options = { cwd: tree.repo, env: { HOME: tree.home }, paths: [tree.custom], bundled: null };
  try {
    const cold: number[] = [];
    let count = 0;
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      const d = new SkillDiscovery(options);
      const view = await d.view();
      cold.push(performance.now() - t0);
      count = view.skills.length;
      d.close();
    }
    if (count !== TOTAL) throw new Error(`expected ${TOTAL} skills, found ${count}`);
    phase("cold runs");
    const naive: number[] = [];
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      naiveRead(tree.roots);
      naive.push(performance.now() - t0);
    }

    // watcher: change-to-snapshot latency on the same 10,000-skill tree
    const d = new SkillDiscovery(options);
    const t0 = performance.now();
    const w = await SkillWatcher.start(d);
    const watchStart = performance.now() - t0;
    phase("watch start");
    let resolveNext: ((v: SkillsView) => void) | undefined;
    d.onChange((v) => resolveNext?.(v));
    const latencies: number[] = [];
    const root = tree.roots[2]!;
    const bundles = readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    for (let i = 0; i < 40; i++) {
      const name = bundles[i]!;
      const kind = i % 4;
      const changed = new Promise<SkillsView>((resolve) => {
        resolveNext = resolve;
      });
      const started = performance.now();
      if (kind === 0) writeFileSync(path.join(root, name, "SKILL.md"), skillText(name, i + 2));
      else if (kind === 1) {
        mkdirSync(path.join(root, `new-${i}`));
        writeFileSync(path.join(root, `new-${i}`, "SKILL.md"), skillText(`new-${i}`));
      } else if (kind === 2) rmSync(path.join(root, `new-${i - 1}`), { recursive: true });
      else writeFileSync(path.join(root, `flat-${i}.md`), skillText(`flat-${i}`));
      await changed;
      latencies.push(performance.now() - started);
    }
    phase("latency runs");
    await w.close();
    d.close();
    phase("close");
    const p95 = percentile(latencies, 95);
    emit({
      bench: "skills",
      figures: [
        {
          name: "cold discovery, 10,000 skills over 7 roots, median",
          value: round(median(cold), 1),
          unit: "ms",
          goal: "<= 1000 ms",
          ok: median(cold) <= 1000,
        },
        { name: "cold discovery, first run", value: round(cold[0]!, 1), unit: "ms" },
        {
          name: "cold discovery / naive sync read of every file (baseline, no parsing)",
          value: round(median(cold) / median(naive), 2),
          unit: "x",
          note: `baseline ${round(median(naive), 1)} ms`,
        },
        {
          name: "watcher start on 10,000 skills (chokidar ready + scan)",
          value: round(watchStart, 1),
          unit: "ms",
        },
        { name: "watch change-to-snapshot latency, median", value: round(median(latencies), 1), unit: "ms" },
        {
          name: "watch change-to-snapshot latency, p95",
          value: round(p95, 1),
          unit: "ms",
          goal: "<= 300 ms",
          ok: p95 <= 300,
        },
        { name: "peak RSS", value: round(peakRssMiB(), 1), unit: "MiB" },
      ],
    });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

await main();
