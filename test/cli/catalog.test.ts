import { describe, expect, it } from "vitest";
import { runCli, runJson } from "../helpers/cli.js";
import { listingOf } from "../helpers/listing.js";
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

  it("skills the budget leaves out are counted in the system text the model reads", () => {
    const skills: Record<string, string> = {};
    for (let i = 0; i < 120; i++)
      skills[`.agents/skills/s${i}/SKILL.md`] =
        `---\nname: s${i}\ndescription: Skill number ${i} does one thing.\n---\nbody\n`;
    const many = tempProject(skills);
    const out = runJson(["catalog", "--set", "catalog.budget.chars=1500"], { cwd: many.repo, env: many.env });
    const left = out.report.omitted.filter((n: string) => /^s\d+$/.test(n));
    expect(left.length).toBeGreaterThan(0);
    expect(listingOf(out).split("\n")).toContain(
      `(${left.length} more skills not listed here: the catalog budget left them out)`,
    );
    expect(out.budget.used).toBeLessThanOrEqual(1500);
  });

  it("a run-time key does not move prefixHash; an assembly key does", () => {
    const base = runJson(["catalog"], opts).prefixHash;
    expect(runJson(["catalog", "--set", "tools.timeoutMs=1000"], opts).prefixHash).toBe(base);
    expect(runJson(["catalog", "--set", "catalog.descriptionMaxChars=40"], opts).prefixHash).not.toBe(base);
  });

  it("by default: the built-in tools, no example tool, nothing deferred", () => {
    const bare = runJson(["catalog"], { cwd: p.repo, env: p.bareEnv });
    const names = bare.tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(["read", "grep", "glob", "skill"]));
    expect(names).not.toContain("ticket_status");
    expect(bare.deferred).toEqual([]);
  });

  // one native and one names-form provider here; test/assemble/deferral.test.ts covers all five in-process
  it.each(["anthropic", "gemini"])(
    "--provider %s over defer.threshold: built-ins stay, the rest deferred (names or native form), changes with reasons",
    (provider) => {
      const out = runJson(["catalog", "--provider", provider, "--set", "defer.threshold=2"], opts);
      expect(out.deferred).toEqual(["ticket_status"]);
      const deferral = out.report.deferral;
      expect(deferral.trigger).toMatch(/^over the threshold: \d+ tools \(threshold 2\)$/);
      expect(deferral.changes).toContainEqual({
        from: "absent",
        to: "deferred",
        reason: deferral.trigger,
        names: ["ticket_status"],
      });
      expect(deferral.changes).toContainEqual(
        expect.objectContaining({ to: "resident", reason: "marked defer: never (built-in tool)" }),
      );
      const wire = (t: { name?: string; type?: string }) => t.name ?? t.type;
      if (provider === "anthropic" || provider === "openai-responses") {
        expect(deferral.form).toBe("native");
        const last = out.tools.at(-1);
        const { defer_loading, ...plain } = last;
        expect(wire(last)).toBe("ticket_status");
        expect(defer_loading).toBe(true);
        expect(CHECKERS[provider]!(plain)).toEqual([]);
        for (const tool of out.tools.slice(0, -1)) expect(tool).not.toHaveProperty("defer_loading");
      } else {
        expect(deferral.form).toBe("names");
        expect(listingOf(out)).toMatch(/load one with tool_search before calling it\):\nticket_status$/);
        expect(out.tools.map(wire)).toEqual(
          expect.arrayContaining(["read", "grep", "glob", "skill", "tool_search"]),
        );
        for (const tool of out.tools) expect(CHECKERS[provider]!(tool)).toEqual([]);
      }
    },
  );

  it("defer marks from the command line: a built-in marked always is deferred, the example marked never stays", () => {
    const out = runJson(
      [
        "catalog",
        "--provider",
        "openai-chat",
        "--set",
        'defer.tools={"glob":"always","ticket_status":"never"}',
      ],
      opts,
    );
    expect(out.deferred).toEqual(["glob"]);
    const names = out.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(names).toContain("ticket_status");
    expect(names).toContain("tool_search");
    expect(out.report.deferral.changes).toContainEqual({
      from: "absent",
      to: "deferred",
      reason: "marked defer: always (defer.tools)",
      names: ["glob"],
    });
  });

  it("defer.native=false lists deferred tools by name for anthropic too; the human view says so", () => {
    const r = runCli(["catalog", "--set", "defer.threshold=2", "--set", "defer.native=false"], opts);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/tools \(\d+\):\n {2}read[\s\S]*\n {2}tool_search\n/);
    expect(r.stdout).toContain("deferred (1, by name in an attachment, loaded with tool_search)");
    expect(r.stdout).toMatch(/absent -> deferred \(over the threshold[^)]*\)\): ticket_status/);
  });
});
