import { describe, expect, it, vi } from "vitest";
import { analyseCommand } from "../../../src/tools/bash/analyse.js";
import { BudgetSpent, CheckBudget } from "../../../src/tools/bash/budget.js";
import { bashNeeds } from "../../../src/tools/bash/needs.js";
import { nativeBashParser } from "../../../src/tools/bash/parser-native.js";
import { wasmBashParser } from "../../../src/tools/bash/parser-wasm.js";
import { ParseStopped } from "../../../src/tools/bash/shell-tree.js";
import { tempDir } from "../../helpers/tmp.js";

// The check's time budget, on an injected clock: a line is untrusted input, and a check that has
// not finished has decided nothing, so past the budget the line is one ask. The clock is the
// test's, so the answer does not depend on how fast this machine is.

const line = "cat a.txt; ls; wc -l b.txt; head -n 1 c.txt; true; echo done";

function context() {
  const ws = tempDir("tp-budget-");
  return { cwd: ws, workspace: ws, config: { "tools.sandbox": "off" } };
}

describe("the check's time budget", () => {
  it("a check whose clock runs past the budget is one ask naming the budget", async () => {
    let t = 0;
    // each reading of the clock is 300 ms later: the budget (800 ms) is spent within a few statements
    const needs = await bashNeeds(line, context(), { now: () => (t += 300) });
    expect(needs).toEqual([
      {
        action: "command",
        patterns: [line],
        floor: { effect: "ask", reason: expect.stringContaining("longer than its budget of 800 ms") },
      },
    ]);
  });

  it("the same line on a clock that stands still is checked in full (the read-only set runs it)", async () => {
    const needs = await bashNeeds(line, context(), { now: () => 0 });
    expect(needs.some((n) => n.floor?.reason.includes("budget"))).toBe(false);
    expect(needs.filter((n) => n.knownSafe !== undefined).map((n) => n.patterns?.[0])).toEqual([
      "cat a.txt",
      "ls",
      "wc -l b.txt",
      "head -n 1 c.txt",
      "true",
      "echo done",
    ]);
  });

  it("the budget is the caller's to set: a generous one on a slow clock still finishes", async () => {
    let t = 0;
    const needs = await bashNeeds(line, context(), { now: () => (t += 300), budgetMs: 1_000_000 });
    expect(needs.some((n) => n.floor?.reason.includes("budget"))).toBe(false);
  });
});

describe("the parse stops at the budget too", () => {
  // a 128 KiB line costs tree-sitter most of a second on a loaded machine: the check's largest
  // single step, so the parser is asked now and then whether to go on
  const long = `cat ${"[[:".repeat(40_000)}`;
  it.each([
    ["native", nativeBashParser],
    ["wasm", wasmBashParser],
  ] as const)(
    "the %s runtime ends a parse when stop says so, and parses in full when it never does",
    async (_engine, load) => {
      const parser = await load().catch(() => undefined);
      if (parser === undefined) return expect(_engine).toBe("native"); // the optional binding did not load
      let asked = 0;
      expect(() => parser.parse(long, () => ++asked > 10)).toThrow(ParseStopped);
      expect(asked).toBeLessThan(20); // a full parse of it polls thousands of times
      let polled = 0;
      const full = parser.parse(long, () => {
        polled++;
        return false;
      });
      expect(polled).toBeGreaterThan(100);
      expect(full.root.type).toBe("program");
    },
  );

  it("the check hands its budget to the parse: a line past it stops in the parser", async () => {
    let readings = 0;
    // the clock stands still for the checks before the parse, then the budget is spent
    const budget = new CheckBudget(800, () => (++readings > 3 ? 1_000 : 0));
    const spent = vi.spyOn(budget, "spent");
    await expect(analyseCommand(long, "/nonexistent-home", { budget })).rejects.toThrow(BudgetSpent);
    expect(spent).toHaveBeenCalled();
  });
});
