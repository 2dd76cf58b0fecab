import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { corpus } from "../../helpers/bash-corpus.js";
import { bashLine } from "../../helpers/bash-grammar.js";
import { tokenSoup } from "../../helpers/bash-token-soup.js";
import { checkLine, differentialMissing, type Finding } from "../../helpers/strace-differential.js";
import { tempDir } from "../../helpers/tmp.js";

const missing = differentialMissing();
/** `npm run fuzz:bash` sets these for the long run (TOOLPLANE_FUZZ_SEED picks another sample). */
const RUNS = Number(process.env.TOOLPLANE_FUZZ_RUNS ?? 150);
const SEED = Number(process.env.TOOLPLANE_FUZZ_SEED ?? 22);
const note = missing ? ` [skipped: ${missing}]` : "";

describe(`the classifier against real bash under strace -f${note}`, () => {
  it.skipIf(missing !== undefined)(
    "predicts every program and every write of the corpus lines it does not ask about",
    async () => {
      const dir = path.join(tempDir("tp-diff-"), "w");
      const findings: Finding[] = [];
      for (const c of corpus) findings.push(...(await checkLine(c.command, dir)).findings);
      expect(findings).toEqual([]);
    },
    120_000,
  );

  it.skipIf(missing !== undefined)(
    "a line that never ends is stopped with every process it started (none outlives the check)",
    async () => {
      const dir = path.join(tempDir("tp-diff-"), "w");
      // read-only, so the classifier lets it run; tail -f waits forever (the 10 s limit stops it)
      const result = await checkLine("tail -n 1 -f src/a.ts | tail -n 1 -f src/b.ts", dir);
      expect(result.ran).toBe(true);
      // the kernel ends the namespace's processes when its init dies; on a loaded machine the
      // last of them may take a moment to be reaped, so wait (bounded) rather than look once
      const deadline = Date.now() + 5_000;
      while (processesIn(dir).length > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(processesIn(dir)).toEqual([]);
    },
    60_000,
  );

  it.skipIf(missing !== undefined)(
    `predicts every program and every write of ${RUNS} generated lines (npm run fuzz:bash runs 100,000)`,
    async () => {
      const dir = path.join(tempDir("tp-diff-"), "w");
      const seen = new Set<string>();
      let ran = 0;
      await fc.assert(
        fc.asyncProperty(bashLine(), async (line) => {
          seen.add(line);
          // the long run says how far it got (a run stopped early still tells what it checked)
          if (RUNS > 150 && seen.size % 5000 === 0)
            console.log(`fuzz progress: ${seen.size} distinct lines, 0 findings`);
          const result = await checkLine(line, dir);
          if (result.ran) ran++;
          expect(result.findings).toEqual([]);
        }),
        { numRuns: RUNS, seed: SEED },
      );
      // the long run's figures (docs/bash.md quotes them)
      if (RUNS > 150)
        console.log(`fuzz: ${RUNS} lines, ${seen.size} distinct, ${ran} run under strace, 0 findings`);
    },
    60_000 + RUNS * 300,
  );

  it.skipIf(missing !== undefined)(
    `predicts every program and every write of ${RUNS * 2} generated lines of shell tokens in any order`,
    async () => {
      const dir = path.join(tempDir("tp-diff-"), "w");
      let ran = 0;
      await fc.assert(
        fc.asyncProperty(tokenSoup(), async (line) => {
          const result = await checkLine(line, dir);
          if (result.ran) ran++;
          expect(result.findings).toEqual([]);
        }),
        { numRuns: RUNS * 2, seed: SEED },
      );
      // most such lines ask; enough of them run that the check means something. A net, not a
      // proof: the two readings it found came up about once in 700 lines (a run of 1,500), and
      // each has its own test (parser-engines.test.ts, cli/bash-adversary.test.ts); the long run
      // (npm run fuzz:bash) draws 200,000
      expect(ran).toBeGreaterThan(RUNS / 5);
    },
    60_000 + RUNS * 600,
  );
});

/** The processes whose working directory is `dir` (Linux /proc). */
function processesIn(dir: string): string[] {
  const out: string[] = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`).startsWith(dir))
        out.push(`${pid}: ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ")}`);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return out;
}
