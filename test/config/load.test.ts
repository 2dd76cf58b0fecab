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

describe("configuration: validation, provenance and kinds", () => {
  it("every key is classified as assembly or run-time and has a default that passes its schema", async () => {
    const { CONFIG_KEYS } = await import("../../src/config/index.js");
    for (const [key, spec] of Object.entries(CONFIG_KEYS)) {
      expect(["assembly", "run-time"], key).toContain(spec.kind);
      expect(spec.schema().safeParse(spec.default).success, key).toBe(true);
      expect(spec.doc.length, key).toBeGreaterThan(0);
    }
  });

  it("a bad value names the file, the key (with its path inside) and what was expected", () => {
    const p = tempProject({
      ".toolplane/config.json": JSON.stringify({ permissions: { rules: [{ effect: "maybe", tool: "x" }] } }),
    });
    const load = () => loadConfig({ cwd: p.repo, env: p.env });
    expect(load).toThrow(
      /\.toolplane\/config\.json: "permissions\.rules" has the wrong type at \[0\]\.effect: .*expected one of "allow"\|"ask"\|"deny"/,
    );
  });

  it("bad JSON and a non-object file name the file", () => {
    const p = tempProject({ ".toolplane/config.json": "{nope" });
    expect(() => loadConfig({ cwd: p.repo, env: p.env })).toThrow(/config\.json: is not valid JSON/);
    const q = tempProject({ ".toolplane/config.json": "[]" });
    expect(() => loadConfig({ cwd: q.repo, env: q.env })).toThrow(/config\.json: must hold a JSON object/);
  });

  it("an environment value names its variable", () => {
    const p = tempProject();
    const env = { ...p.env, TOOLPLANE_RESULTS_INLINE_MAX_BYTES: "lots" };
    expect(() => loadConfig({ cwd: p.repo, env })).toThrow(
      /TOOLPLANE_RESULTS_INLINE_MAX_BYTES: "results\.inlineMaxBytes" has the wrong type: expected number/,
    );
    const ok = loadConfig({ cwd: p.repo, env: { ...p.env, TOOLPLANE_RESULTS_INLINE_MAX_BYTES: "4096" } });
    expect(ok.values["results.inlineMaxBytes"]).toMatchObject({
      value: 4096,
      layer: "env",
      source: "TOOLPLANE_RESULTS_INLINE_MAX_BYTES",
    });
  });

  it("permission rules from every layer are kept, highest first, each with its source", () => {
    const p = tempProject(
      {
        ".toolplane/config.json": JSON.stringify({
          permissions: { rules: [{ effect: "allow", tool: "bash" }] },
        }),
      },
      { trust: true },
    );
    writeTree(path.join(p.home, ".config", "toolplane"), {
      "config.json": JSON.stringify({
        "permissions.rules": [{ effect: "deny", tool: "bash", pattern: "rm *" }],
      }),
    });
    const cfg = loadConfig({
      cwd: p.repo,
      env: p.env,
      set: ['permissions.rules=[{"effect":"ask","tool":"web"}]'],
    });
    const v = cfg.values["permissions.rules"];
    expect(v.value).toEqual([
      { effect: "ask", tool: "web" },
      { effect: "allow", tool: "bash" },
      { effect: "deny", tool: "bash", pattern: "rm *" },
    ]);
    expect(v.layer).toBe("cli");
    expect(v.contributions?.map((c) => c.layer)).toEqual(["cli", "project", "user"]);
  });
});
