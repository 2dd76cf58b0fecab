import { describe, expect, it } from "vitest";
import { bashNeeds } from "../../../src/tools/bash/needs.js";
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
