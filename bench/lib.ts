import { performance } from "node:perf_hooks";

/** One measured figure; `goal` is the target the issue sets, `ok` whether it was met. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  goal?: string;
  ok?: boolean;
  note?: string;
}

export interface BenchReport {
  bench: string;
  figures: Figure[];
}

export function median(xs: readonly number[]): number {
  return percentile(xs, 50);
}

export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

/** Milliseconds of each of `reps` runs after `warmups` unmeasured ones. */
export async function timeRuns(fn: () => unknown, reps: number, warmups = 1): Promise<number[]> {
  for (let i = 0; i < warmups; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times;
}

/** Peak resident set size of this process so far, in MiB. */
export function peakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** Each bench runs in its own process and ends by printing its report as one JSON line. */
export function emit(report: BenchReport): void {
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

/** Progress for people, only when stderr is a terminal. */
export function progress(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${text}`);
}

export function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
