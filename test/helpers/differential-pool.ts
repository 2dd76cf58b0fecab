import path from "node:path";
import { checkLine, type Finding } from "./strace-differential.js";
import { tempDir } from "./tmp.js";

/** Lines checked side by side (each worker in a fixture of its own), as the machine's two cores allow. */
export const DIFFERENTIAL_WORKERS = 2;

/** The workers' folders, made once per test file: the fixture is built once per folder and only copied again where a line changed it. */
const dirs: string[] = [];

/**
 * Checks each line under strace with `workers` lines at a time. Each worker has its own fixture
 * root: the planted programs' markers and the copied workspace are per root, so one line cannot
 * see what another ran. The folders are kept for the next call in the same file. Returns every finding and the counts of lines run, unasked and stopped.
 */
export async function checkLines(
  lines: readonly string[],
  opts: { decide?: boolean; workers?: number } = {},
): Promise<{ findings: Finding[]; ran: number; unasked: number; stopped: number }> {
  const findings: Finding[] = [];
  let [ran, unasked, stopped, next] = [0, 0, 0, 0];
  const worker = async (n: number) => {
    dirs[n] ??= path.join(tempDir("tp-diff-"), "w");
    const dir = dirs[n]!;
    while (next < lines.length) {
      const line = lines[next++]!;
      const r = await checkLine(line, dir, { decide: opts.decide });
      findings.push(...r.findings);
      if (r.ran) ran++;
      else stopped++;
      if (r.unasked) unasked++;
    }
  };
  await Promise.all(Array.from({ length: opts.workers ?? DIFFERENTIAL_WORKERS }, (_, n) => worker(n)));
  // the findings in the lines' order, whichever worker found them first
  const order = new Map(lines.map((l, i) => [l, i]));
  findings.sort((a, b) => order.get(a.command)! - order.get(b.command)!);
  return { findings, ran, unasked, stopped };
}
