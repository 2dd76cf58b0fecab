import { describe, expect, it } from "vitest";
import { runCli, runJson } from "../helpers/cli.js";
import { CHECKERS } from "../helpers/provider-rules.js";
import { tempProject } from "../helpers/tmp.js";

describe("toolplane catalog", () => {
  const p = tempProject();
  const opts = { cwd: p.repo, env: p.env };

  it.each(["anthropic", "openai-chat", "openai-responses", "gemini", "mcp"])(
    "--provider %s --json: the contract fields, and tools its rule checker accepts",
    (provider) => {
      const out = runJson(["catalog", "--provider", provider], opts);
      for (const key of ["provider", "tools", "system", "deferred", "budget", "prefixHash", "incomplete"])
        expect(out).toHaveProperty(key);
      expect(Object.keys(out.budget)).toEqual(expect.arrayContaining(["limit", "used", "unit", "truncated"]));
      expect(out.provider).toBe(provider);
      expect(out.tools.length).toBeGreaterThan(0);
      for (const tool of out.tools) expect(CHECKERS[provider]!(tool)).toEqual([]);
    },
  );

  it("the human view shows the budget as a bar and lists cut entries", () => {
    const r = runCli(["catalog", "--set", "catalog.budget.chars=60"], opts);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/budget: +\[#+-*\] +\d+% \d+\/60 chars/);
    expect(r.stdout).toMatch(/cut to fit the budget \(\d+\):\n(.*\n)* {2}read +\d+ -> \d+ chars/);
  });

  it("a run-time key does not move prefixHash; an assembly key does", () => {
    const base = runJson(["catalog"], opts).prefixHash;
    expect(runJson(["catalog", "--set", "tools.timeoutMs=1000"], opts).prefixHash).toBe(base);
    expect(runJson(["catalog", "--set", "catalog.descriptionMaxChars=40"], opts).prefixHash).not.toBe(base);
  });

  // one native and one names-form provider here; test/assemble/deferral.test.ts covers all five in-process
  it.each(["anthropic", "gemini"])(
    "--provider %s over defer.threshold: deferred names, tool_search (or the native form), changes with reasons",
    (provider) => {
      const out = runJson(["catalog", "--provider", provider, "--set", "defer.threshold=2"], opts);
      expect(out.deferred).toEqual([
        "bash",
        "edit",
        "glob",
        "grep",
        "read",
        "skill",
        "ticket_status",
        "write",
      ]);
      const deferral = out.report.deferral;
      expect(deferral.trigger).toBe("over the threshold: 8 tools (threshold 2)");
      expect(deferral.changes).toContainEqual({
        from: "absent",
        to: "deferred",
        reason: deferral.trigger,
        names: out.deferred,
      });
      if (provider === "anthropic" || provider === "openai-responses") {
        expect(deferral.form).toBe("native");
        expect(out.tools).toHaveLength(9);
        for (const tool of out.tools.slice(1)) {
          const { defer_loading, ...plain } = tool;
          expect(defer_loading).toBe(true);
          expect(CHECKERS[provider]!(plain)).toEqual([]);
        }
      } else {
        expect(deferral.form).toBe("names");
        expect(out.system).toContain("bash, edit, glob, grep, read, skill, ticket_status, write");
        expect(out.tools).toHaveLength(1);
        for (const tool of out.tools) expect(CHECKERS[provider]!(tool)).toEqual([]);
      }
    },
  );

  it("defer.native=false lists deferred tools by name for anthropic too; the human view says so", () => {
    const r = runCli(["catalog", "--set", "defer.threshold=2", "--set", "defer.native=false"], opts);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/tools \(1\):\n {2}tool_search/);
    expect(r.stdout).toContain("deferred (8, by name in the system text, loaded with tool_search)");
    expect(r.stdout).toMatch(
      /absent -> deferred \(over the threshold[^)]*\)\): bash, edit, glob, grep, read, skill, ticket_status, write/,
    );
  });
});
