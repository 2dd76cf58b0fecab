// Toolplane.set(key, value) on a live plane: run-time keys reach the next call of a host made
// before the change, with the catalog unchanged; assembly keys invalidate and change the catalog;
// keys read at open, unknown keys and bad values are refused, naming the key.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/index.js";
import { ConfigError } from "../../src/config/index.js";
import { tempDir, tempProject, writeTree } from "../helpers/tmp.js";

async function open() {
  const p = tempProject({ "notes.txt": "alpha\n" });
  return Toolplane.open({ cwd: p.repo, env: p.env, bundledSkills: null });
}

describe("Toolplane.set", () => {
  it("a run-time key applies from the next call of an existing host; the catalog does not move", async () => {
    const plane = await open();
    try {
      const host = plane.host();
      const before = await plane.catalog("anthropic");
      let invalidated = 0;
      plane.tools.on("invalidated", () => invalidated++);
      expect((await host.call({ tool: "read", args: { path: "notes.txt" } })).isError).toBe(false);
      // a permission rule (run-time) that does not deny a whole tool
      plane.set("permissions.rules", [{ effect: "deny", path: "notes.txt" }]);
      const denied = await host.call({ tool: "read", args: { path: "notes.txt" } });
      expect(denied.error?.code).toBe("permission_denied");
      plane.set("results.lineMaxChars", 40);
      expect(plane.config.values["results.lineMaxChars"]).toMatchObject({ value: 40, layer: "cli" });
      // changes add up: the rule is still there
      expect((await host.call({ tool: "read", args: { path: "notes.txt" } })).isError).toBe(true);
      // a directory added to the boundary reaches the same host too
      const outside = writeTree(tempDir("tp-set-extra-"), { "far.txt": "far\n" });
      const far = { tool: "read", args: { path: path.join(outside, "far.txt") } };
      expect((await host.call(far)).error?.code).toBe("permission_denied");
      plane.set("permissions.additionalDirectories", [outside]);
      expect((await host.call(far)).isError).toBe(false);
      const after = await plane.catalog("anthropic");
      expect(after.prefixHash).toBe(before.prefixHash);
      expect(invalidated).toBe(1); // the rule (it could have denied a whole tool), not the others
    } finally {
      await plane.close();
    }
  });

  it("an assembly key invalidates the registry and changes what the model sees", async () => {
    const plane = await open();
    try {
      const before = await plane.catalog("anthropic");
      let invalidated = 0;
      plane.tools.on("invalidated", () => invalidated++);
      plane.set("tools.disabled", ["bash"]);
      expect(invalidated).toBe(1);
      const after = await plane.catalog("anthropic");
      expect(after.prefixHash).not.toBe(before.prefixHash);
      expect(after.tools.map((t) => (t as { name: string }).name)).not.toContain("bash");
      expect((await plane.call("bash", { command: "true" })).error?.code).toBe("unknown_tool");
      plane.set("catalog.budget.chars", 900);
      expect((await plane.catalog("anthropic")).budget.limit).toBe(900);
    } finally {
      await plane.close();
    }
  });

  it("refuses a key read at open, an unknown key and a bad value, and keeps the old value", async () => {
    const plane = await open();
    try {
      expect(() => plane.set("mcp.servers", {})).toThrow(
        /read when the Toolplane opens: open a new Toolplane/,
      );
      expect(() => plane.set("tools.timeoutMz", 5)).toThrow(/is not a configuration key/);
      expect(() => plane.set("tools.timeoutMs", -5)).toThrow(ConfigError);
      expect(plane.config.get("tools.timeoutMs")).toBe(120_000);
    } finally {
      await plane.close();
    }
  });
});

describe("Toolplane.reload", () => {
  it("applies an edited configuration file on top of set() changes; an open-time key or a broken file applies nothing", async () => {
    const p = tempProject({ "notes.txt": "alpha\n" }, { trust: true });
    const plane = await Toolplane.open({ cwd: p.repo, env: p.bareEnv, bundledSkills: null });
    try {
      plane.set("results.lineMaxChars", 40);
      expect(plane.reload()).toEqual({ changed: [], needsRestart: [] });
      let invalidated = 0;
      plane.tools.on("invalidated", () => invalidated++);
      writeTree(p.repo, {
        ".toolplane/config.json": JSON.stringify({ tools: { timeoutMs: 1234, disabled: ["grep"] } }),
      });
      expect(plane.reload()).toEqual({ changed: ["tools.disabled", "tools.timeoutMs"], needsRestart: [] });
      expect(plane.config.get("tools.timeoutMs")).toBe(1234);
      expect(plane.config.get("results.lineMaxChars")).toBe(40); // the set() change stays on top
      expect(invalidated).toBe(1); // tools.disabled is an assembly key
      expect(JSON.stringify((await plane.catalog("anthropic")).tools)).not.toContain('"grep"');

      writeTree(p.repo, {
        ".toolplane/config.json": JSON.stringify({
          tools: { timeoutMs: 99, disabled: ["grep"], examples: true },
        }),
      });
      expect(plane.reload()).toEqual({
        changed: ["tools.examples", "tools.timeoutMs"],
        needsRestart: ["tools.examples"],
      });
      expect(plane.config.get("tools.timeoutMs")).toBe(1234);

      writeTree(p.repo, { ".toolplane/config.json": "{ broken" });
      expect(() => plane.reload()).toThrow(ConfigError);
      expect(plane.config.get("tools.timeoutMs")).toBe(1234);
    } finally {
      await plane.close();
    }
  });
});
