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
    expect(r.stdout).toMatch(/cut to fit the budget \(\d+\):\n[\s\S]*\n {2}ticket_status +\d+ -> \d+ chars/);
  });

  it("a run-time key does not move prefixHash; an assembly key does", () => {
    const base = runJson(["catalog"], opts).prefixHash;
    expect(runJson(["catalog", "--set", "tools.timeoutMs=1000"], opts).prefixHash).toBe(base);
    expect(runJson(["catalog", "--set", "catalog.descriptionMaxChars=40"], opts).prefixHash).not.toBe(base);
  });
});
