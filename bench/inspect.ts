import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Toolplane } from "../src/assemble/index.js";
import { startInspector } from "../src/inspect/index.js";
import { emit, median, peakRssMiB, percentile, round, timeRuns } from "./lib.js";

const SKILL_RUNS = 15;
const CONFIG_RUNS = 7;

/** The `changed` events of the inspector's stream, with the time each arrived. */
function listen(port: number, target: string) {
  const arrived: Array<{ what: string[]; at: number }> = [];
  let buffer = "";
  const req = request({ host: "127.0.0.1", port, path: target }, (res) => {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^event: changed\ndata: (.*)$/m.exec(frame)?.[1];
        if (data)
          arrived.push({ what: (JSON.parse(data) as { what: string[] }).what, at: performance.now() });
      }
    });
  });
  req.end();
  return {
    async after(t0: number, what: string): Promise<number> {
      const deadline = t0 + 10_000;
      while (performance.now() < deadline) {
        const hit = arrived.find((e) => e.at >= t0 && e.what.includes(what));
        if (hit) return hit.at - t0;
        await new Promise((r) => setTimeout(r, 2));
      }
      throw new Error(`no "${what}" change within 10 s`);
    },
    close: () => req.destroy(),
  };
}

function get(port: number, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: target }, (res) => {
      let bytes = 0;
      res.on("data", (c: Buffer) => {
        bytes += c.length;
      });
      res.on("end", () => resolve(bytes));
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * How long a change takes to reach the page (the issue asks for at most 1 s): a skill written on
 * disk, and a user configuration file written (a new Toolplane is opened from it), each to the
 * `changed` event on the page's stream. And what the page's catalog view costs over the library's
 * own catalog call, in the same run.
 */
async function main() {
  const base = path.join(tmpdir(), `tp-bench-inspect-${process.pid}`);
  rmSync(base, { recursive: true, force: true });
  const repo = path.join(base, "repo");
  const home = path.join(base, "home");
  mkdirSync(path.join(repo, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true });
  const env = { HOME: home, PATH: process.env.PATH ?? "" };
  const inspector = await startInspector({ cwd: repo, env, bundledSkills: null, port: 0 });
  const prefix = new URL(inspector.url).pathname;
  const stream = listen(inspector.port, `${prefix}events`);
  await new Promise((r) => setTimeout(r, 200));

  const skillMs: number[] = [];
  for (let i = 0; i < SKILL_RUNS; i++) {
    const dir = path.join(repo, ".toolplane", "skills", `bench-${i}`);
    mkdirSync(dir, { recursive: true });
    const t0 = performance.now();
    writeFileSync(
      path.join(dir, "SKILL.md"),
      `---\nname: bench-${i}\ndescription: Bench skill ${i}.\n---\nbody\n`,
    );
    skillMs.push(await stream.after(t0, "skills"));
    await new Promise((r) => setTimeout(r, 100));
  }

  const configFile = path.join(home, ".config", "toolplane", "config.json");
  mkdirSync(path.dirname(configFile), { recursive: true });
  const configMs: number[] = [];
  for (let i = 0; i < CONFIG_RUNS; i++) {
    const t0 = performance.now();
    writeFileSync(configFile, JSON.stringify({ catalog: { budget: { chars: 8000 + i } } }));
    configMs.push(await stream.after(t0, "config"));
    await new Promise((r) => setTimeout(r, 150));
  }

  const direct = await Toolplane.open({ cwd: repo, env, bundledSkills: null });
  const libraryMs = await timeRuns(() => direct.catalog("anthropic"), 30, 3);
  const pageMs = await timeRuns(() => get(inspector.port, `${prefix}api/catalog?provider=anthropic`), 30, 3);
  await direct.close();
  stream.close();
  await inspector.close();
  rmSync(base, { recursive: true, force: true });

  emit({
    bench: "inspect",
    figures: [
      {
        name: "skill written on disk to the page's change event, median",
        value: round(median(skillMs), 1),
        unit: "ms",
        goal: "≤ 1000 ms",
        ok: percentile(skillMs, 95) <= 1000,
        note: `p95 ${round(percentile(skillMs, 95), 1)} ms, ${SKILL_RUNS} runs`,
      },
      {
        name: "configuration file written to the page's change event (new Toolplane opened), median",
        value: round(median(configMs), 1),
        unit: "ms",
        goal: "≤ 1000 ms",
        ok: percentile(configMs, 95) <= 1000,
        note: `p95 ${round(percentile(configMs, 95), 1)} ms, ${CONFIG_RUNS} runs`,
      },
      {
        name: "catalog view over HTTP (catalog, budget pieces, prefix tracking), median",
        value: round(median(pageMs), 2),
        unit: "ms",
        note: `library catalog() alone ${round(median(libraryMs), 3)} ms in the same run`,
      },
      { name: "peak RSS", value: round(peakRssMiB(), 0), unit: "MiB" },
    ],
  });
}

await main();
