import { describe, expect, it } from "vitest";
import { runCli, runJson } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

describe("CLI contract: layers and catalog", () => {
  const p = tempProject();
  const opts = { cwd: p.repo, env: p.env };

  it("layers --json lists every layer's entries with provider and shadowed", () => {
    const out = runJson(["layers"], opts);
    expect(Array.isArray(out.layers)).toBe(true);
    const global = out.layers.find((l: { name: string }) => l.name === "global");
    const ticket = global.entries.find((e: { name: string }) => e.name === "ticket_status");
    expect(ticket).toEqual({ name: "ticket_status", provider: "ticket", shadowed: false });
  });

  it.each(["anthropic", "openai-chat"])(
    "catalog --provider %s --json has the contract fields",
    (provider) => {
      const out = runJson(["catalog", "--provider", provider], opts);
      for (const key of ["provider", "tools", "system", "deferred", "budget", "prefixHash", "incomplete"]) {
        expect(out).toHaveProperty(key);
      }
      expect(out.provider).toBe(provider);
      expect(out.budget).toMatchObject({ limit: 8000, unit: "chars", truncated: false });
      expect(out.prefixHash).toMatch(/^[0-9a-f]{64}$/);
      const text = JSON.stringify(out.tools);
      expect(text).toContain("ticket_status");
    },
  );

  it("--set reaches the catalog, and the same inputs give the same bytes", () => {
    const a = runCli(["catalog", "--json", "--set", "catalog.budget.chars=2000"], opts);
    const b = runCli(["catalog", "--json", "--set", "catalog.budget.chars=2000"], opts);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout).budget.limit).toBe(2000);
    expect(a.stdout).toBe(b.stdout);
  });

  it("exit codes: 2 for bad usage with a one-line error on stderr", () => {
    for (const args of [
      ["catalog", "--provider", "nope"],
      ["catalog", "--set", "nope=1"],
      ["catalog", "--bogus"],
      [],
    ]) {
      const r = runCli(args, opts);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
    }
    const bad = runCli(["catalog", "--set", "catalog.budget.chars=lots"], opts);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toMatch(/catalog\.budget\.chars/);
  });

  it("--help shows examples", () => {
    const r = runCli(["catalog", "--help"], opts);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Examples:/);
    expect(r.stdout).toMatch(/--cwd/);
    expect(r.stdout).toMatch(/--set/);
  });
});
