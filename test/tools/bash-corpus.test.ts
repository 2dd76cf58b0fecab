import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyseCommand } from "../../src/tools/bash/needs.js";
import { ROOT } from "../helpers/cli.js";

interface Case {
  command: string;
  commands: string[];
  writes: string[];
  ask: boolean;
  /** A known misclassification, with why; the test checks it is still one (so docs/tools.md stays true). */
  knownMiss?: string;
}

const corpus = JSON.parse(
  readFileSync(path.join(ROOT, "test", "fixtures", "bash-corpus.json"), "utf8"),
) as Case[];

/** What the classifier says, in the corpus's own shape. */
async function classifyCase(command: string) {
  const a = await analyseCommand(command, "/home/u");
  return {
    commands: a.commands.map((c) => c.patterns[0]!).sort(),
    writes: a.writes.map((w) => (w.subtree ? `${w.path === "/" ? "" : w.path}/**` : w.path)).sort(),
    ask: a.asks.length > 0,
  };
}

describe("the shell classification corpus (test/fixtures/bash-corpus.json)", () => {
  it("holds at least 150 commands, with the tricky forms the issue names", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(150);
    const all = corpus.map((c) => c.command).join("\n");
    for (const form of ["'", '"', "<<", "-exec rm", "xargs", "git -C", ">|", "<(", "$("])
      expect(all).toContain(form);
  });

  it.each(corpus.map((c) => [c.command, c] as const))("%s", async (_, c) => {
    const got = await classifyCase(c.command);
    const want = { commands: [...c.commands].sort(), writes: [...c.writes].sort(), ask: c.ask };
    if (c.knownMiss) expect(got).not.toEqual(want);
    else expect(got).toEqual(want);
  });

  it("reports the accuracy docs/tools.md states", () => {
    const misses = corpus.filter((c) => c.knownMiss).length;
    const accuracy = `${corpus.length - misses}/${corpus.length}`;
    const doc = readFileSync(path.join(ROOT, "docs", "tools.md"), "utf8");
    expect(doc).toContain(`classifies ${accuracy} `);
  });
});
