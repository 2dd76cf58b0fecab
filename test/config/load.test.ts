import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, envName, loadConfig } from "../../src/config/index.js";
import { tempProject, writeTree } from "../helpers/tmp.js";

describe("configuration layers", () => {
  it("applies cli > env > project > user > default and records the layer of each key", () => {
    const p = tempProject({
      ".toolplane/config.json": JSON.stringify({
        catalog: { budget: { chars: 3000 } },
        "tools.timeoutMs": 5000,
      }),
    });
    const userHome = path.join(p.home, ".config", "toolplane");
    writeTree(userHome, {
      "config.json": JSON.stringify({ tools: { timeoutMs: 7000, disabled: ["x"] }, grep: { maxMatches: 9 } }),
    });
    const env = { ...p.env, TOOLPLANE_GREP_MAX_MATCHES: "11" };
    const cfg = loadConfig({ cwd: path.join(p.repo), env, set: ["catalog.budget.chars=1234"] });
    expect(cfg.values["catalog.budget.chars"]).toMatchObject({ value: 1234, layer: "cli", kind: "assembly" });
    expect(cfg.values["grep.maxMatches"]).toMatchObject({ value: 11, layer: "env" });
    expect(cfg.values["tools.timeoutMs"]).toMatchObject({ value: 5000, layer: "project", kind: "run-time" });
    expect(cfg.values["tools.disabled"]).toMatchObject({ value: ["x"], layer: "user" });
    expect(cfg.values["results.inlineMaxBytes"]).toMatchObject({ value: 51200, layer: "default" });
  });

  it("finds the project file from a subdirectory (nearest .git)", () => {
    const p = tempProject({ ".toolplane/config.json": '{"defer":{"mode":"off"}}' });
    mkdirSync(path.join(p.repo, "a", "b"), { recursive: true });
    const cfg = loadConfig({ cwd: path.join(p.repo, "a", "b"), env: p.env });
    expect(cfg.projectRoot).toBe(p.repo);
    expect(cfg.get("defer.mode")).toBe("off");
  });

  it("names the file, the key and the expected type on a bad value", () => {
    const p = tempProject({ ".toolplane/config.json": '{"tools":{"timeoutMs":"soon"}}' });
    const load = () => loadConfig({ cwd: p.repo, env: p.env });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/config\.json.*"tools\.timeoutMs".*expected number/);
  });

  it("rejects unknown keys with a suggestion", () => {
    const p = tempProject({ ".toolplane/config.json": '{"catalog":{"budget":{"charz":1}}}' });
    expect(() => loadConfig({ cwd: p.repo, env: p.env })).toThrow(
      /"catalog\.budget\.charz".*did you mean "catalog\.budget\.chars"/,
    );
    expect(() => loadConfig({ cwd: p.repo, env: p.env, set: ["=1"] })).toThrow(ConfigError);
  });

  it("maps keys to environment names", () => {
    expect(envName("catalog.budget.chars")).toBe("TOOLPLANE_CATALOG_BUDGET_CHARS");
    expect(envName("results.inlineMaxBytes")).toBe("TOOLPLANE_RESULTS_INLINE_MAX_BYTES");
  });
});
