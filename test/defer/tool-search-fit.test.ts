// tool_search through the host, on the built-in tools deferred: obvious short queries fit (the
// fit is over the query's span, not a long description's every word), clear misses do not, and
// the list the model reads is ordered by the number it shows.
import { afterEach, describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/index.js";
import { NO_FIT_THRESHOLD } from "../../src/defer/selection.js";
import type { ToolSearchResult } from "../../src/defer/tool-search.js";
import { tempProject } from "../helpers/tmp.js";

const textOf = (r: { content: Array<{ type: string; text?: string }> }) =>
  r.content.map((c) => c.text ?? "").join("\n");

const BUILTINS = ["read", "grep", "glob", "edit", "write", "bash", "skill"];
const planes: Toolplane[] = [];
afterEach(async () => {
  for (const p of planes.splice(0)) await p.close();
});

async function deferredBuiltins() {
  const p = tempProject();
  const marks = JSON.stringify(Object.fromEntries(BUILTINS.map((n) => [n, "always"])));
  const plane = await Toolplane.open({
    cwd: p.repo,
    env: p.env,
    set: [`defer.tools=${marks}`, "tools.examples=false"],
    bundledSkills: null,
  });
  planes.push(plane);
  expect((await plane.catalog("openai-chat")).deferred).toEqual([...BUILTINS].sort());
  return plane;
}

describe("tool_search's fit and order", () => {
  it.each([
    ["find files by name", "glob"],
    ["search file contents for a regex", "grep"],
    ["run a shell command", "bash"],
    ["replace text in a file", "edit"],
    ["load a skill", "skill"],
  ])("%s: %s first, over the no-fit threshold", async (query, tool) => {
    const plane = await deferredBuiltins();
    const result = await plane.newSession().call("tool_search", { query, limit: 3 });
    expect(result.isError).toBe(false);
    const value = result.value as ToolSearchResult;
    expect(value.results[0]!.name).toBe(tool);
    expect(value.results[0]!.score).toBeGreaterThanOrEqual(NO_FIT_THRESHOLD);
    // the model reads the relevance it is sorted by, relative to the best: 1.00 first, never rising
    const shown = [...textOf(result).matchAll(/^- \S+ \((\d\.\d\d)\)/gm)].map((m) => Number(m[1]));
    expect(shown[0]).toBe(1);
    expect(shown).toEqual([...shown].sort((a, b) => b - a));
    expect(textOf(result)).not.toContain("None of these fits");
  });

  it("a query nothing fits is said to fit badly, or finds nothing", async () => {
    const plane = await deferredBuiltins();
    for (const query of ["send an email to my boss", "book a flight to Paris"]) {
      const result = await plane.newSession().call("tool_search", { query });
      const value = result.value as ToolSearchResult;
      if (value.results.length === 0) expect(textOf(result)).toMatch(/No deferred tool matches/);
      else {
        expect(value.results[0]!.score).toBeLessThan(NO_FIT_THRESHOLD);
        expect(textOf(result)).toContain("None of these fits the query well");
      }
    }
  });
});
