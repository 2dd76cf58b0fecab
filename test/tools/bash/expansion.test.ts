import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BraceUnknown, expandBraces } from "../../../src/tools/bash/braces.js";
import { CheckBudget } from "../../../src/tools/bash/budget.js";
import { compileSegment, expandPathname, GlobUnknown, matchSegment } from "../../../src/tools/bash/glob.js";
import { tempDir } from "../../helpers/tmp.js";

// Brace and pathname expansion against bash itself: words drawn from the characters that matter,
// each expanded by the classifier and by bash (one bash for the whole draw), the lists
// compared. Where the classifier says it does not model a word, it asks: that word is skipped.

/** The words bash makes of each of `words`, one bash for all of them. */
function bashExpands(words: readonly string[], cwd: string): string[][] {
  const script = words.map((w) => `printf '%s\\0' ${w}; printf '\\1'`).join("\n");
  // on standard input: a long draw is more than one argument may hold
  const r = spawnSync("/bin/bash", [], {
    input: script,
    maxBuffer: 64 << 20,
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", LC_ALL: "C.UTF-8" },
  });
  return r.stdout
    .split("\x01")
    .slice(0, words.length)
    .map((s) => s.split("\0").filter((x) => x !== ""));
}

const RUNS = Number(process.env.TOOLPLANE_FUZZ_RUNS ?? 0) > 0 ? 20_000 : 600;

describe("brace expansion is bash's", () => {
  it("on the manual's cases and the quirks (unbalanced braces, padding, letters)", () => {
    const cases: Array<[string, string[]]> = [
      [".en{v..v}", [".env"]],
      ["{x{a,b}}", ["{xa}", "{xb}"]],
      ["{{a,b}", ["{a", "{b"]],
      ["a{b}c{d,e}", ["a{b}cd", "a{b}ce"]],
      ["{01..3}", ["01", "02", "03"]],
      ["{-01..1}", ["-01", "000", "001"]],
      ["{a..e..2}", ["a", "c", "e"]],
      ["{,a}", ["a"]],
      ["{1..a}", ["{1..a}"]],
    ];
    for (const [word, want] of cases) expect(expandBraces(word, 1000), word).toEqual(want);
    expect(() => expandBraces("{Z..a}", 1000)).toThrow(BraceUnknown);
    expect(expandBraces("{1..100000}", 1000)).toBeUndefined();
  });

  it(`on ${RUNS} drawn words, as bash prints them`, () => {
    const piece = fc.constantFrom("{", "}", ",", "..", "a", "b", "Z", "1", "-", "0", "2", ".", "x");
    const words = fc.sample(
      fc.array(piece, { minLength: 1, maxLength: 9 }).map((p) => p.join("")),
      { numRuns: RUNS, seed: 41 },
    );
    const dir = tempDir("tp-brace-");
    const ours: Array<string[] | undefined> = words.map((w) => {
      try {
        return expandBraces(w, 1000);
      } catch (error) {
        if (error instanceof BraceUnknown) return undefined;
        throw error;
      }
    });
    const theirs = bashExpands(words, dir);
    const differ = words
      .map((w, i) => ({ w, ours: ours[i], bash: theirs[i] }))
      .filter((x) => x.ours !== undefined && JSON.stringify(x.ours) !== JSON.stringify(x.bash));
    expect(differ).toEqual([]);
    // most words are modelled: the skip is the exception
    expect(ours.filter((o) => o !== undefined).length).toBeGreaterThan(RUNS * 0.9);
  });
});

describe("pathname expansion is bash's", () => {
  const names = [
    "a",
    "b",
    "ab",
    "a]",
    "[a",
    "]",
    "-x",
    ".env",
    ".x",
    "A",
    "_b",
    "a.txt",
    "b.ts",
    "d1/x",
    "d1/.h",
    "d2/y",
    "d2/a.ts",
  ];

  function fixture(): string {
    const dir = tempDir("tp-glob-");
    for (const n of names) {
      mkdirSync(path.dirname(path.join(dir, n)), { recursive: true });
      writeFileSync(path.join(dir, n), "");
    }
    symlinkSync("nowhere", path.join(dir, "dangling"));
    symlinkSync("d2", path.join(dir, "l2"));
    return dir;
  }

  it(`on ${RUNS} drawn patterns, as bash expands them (C.UTF-8)`, () => {
    const piece = fc.constantFrom(
      "*",
      "?",
      "[",
      "]",
      "!",
      "^",
      "-",
      "a",
      "b",
      ".",
      "x",
      "/",
      "d",
      "1",
      "2",
      "[[:alpha:]]",
      "[a-c]",
    );
    const patterns = fc
      .sample(
        fc.array(piece, { minLength: 1, maxLength: 6 }).map((p) => p.join("")),
        { numRuns: RUNS, seed: 42 },
      )
      .filter((p) => /[*?[]/.test(p) && !p.startsWith("/"));
    const dir = fixture();
    const ours = patterns.map((p) => {
      try {
        return expandPathname(p, dir);
      } catch (error) {
        if (error instanceof GlobUnknown) return undefined;
        throw error;
      }
    });
    const theirs = bashExpands(patterns, dir);
    const differ = patterns
      .map((p, i) => ({ p, ours: ours[i], bash: theirs[i] }))
      .filter((x) => x.ours !== undefined && JSON.stringify(x.ours) !== JSON.stringify(x.bash));
    expect(differ).toEqual([]);
    expect(ours.filter((o) => o !== undefined).length).toBeGreaterThan(patterns.length * 0.9);
  });

  it("`[!x]` negates, a dotfile needs a leading `.`, `*/x` keeps what exists", () => {
    const dir = fixture();
    expect(expandPathname(".en[!x]", dir)).toEqual([".env"]);
    expect(expandPathname("[!.]env", dir)).toEqual(["[!.]env"]);
    expect(expandPathname("*/x", dir)).toEqual(["d1/x"]);
    expect(expandPathname("*/", dir)).toEqual(["d1/", "d2/", "l2/"]);
  });

  it("a crafted name costs name x pattern steps, not a backtracking search", () => {
    const seg = compileSegment(`${"*a".repeat(50)}*b`);
    let reads = 0;
    const budget = new CheckBudget(Number.POSITIVE_INFINITY, () => reads++);
    expect(matchSegment(seg, "a".repeat(60), budget)).toBe(false);
    // one clock read per 4096 steps: at most 60 x 102 steps
    expect(reads).toBeLessThanOrEqual(Math.ceil((60 * 102) / 4096) + 1);
  });
});
