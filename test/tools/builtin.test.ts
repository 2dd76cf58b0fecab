import { describe, expect, it } from "vitest";
import { Toolplane } from "../../src/assemble/toolplane.js";
import { builtinFileTools } from "../../src/tools/index.js";
import { tempProject } from "../helpers/tmp.js";

describe("builtin provider", () => {
  it("registers the coding tools in the global layer as provider builtin", async () => {
    const p = tempProject();
    const plane = await Toolplane.open({ cwd: p.repo, env: p.env });
    const snapshot = await plane.toolSnapshot();
    const builtin = snapshot.entries.filter((e) => e.provider === "builtin").map((e) => e.name);
    expect(builtin).toEqual(["read", "grep", "glob", "edit", "write", "bash", "skill"]);
  });

  it("declares permissions with paths the permission layer can check, and read never spills", () => {
    const [read, grep, glob] = builtinFileTools();
    expect(read!.host.spill).toBe(false);
    expect(read!.host.permission?.action).toBe("read");
    expect(read!.host.permission?.paths?.({ path: "src/a.ts" })).toEqual(["src/a.ts"]);
    expect(grep!.host.permission?.paths?.({ pattern: "x" })).toEqual(["."]);
    expect(glob!.host.permission?.paths?.({ pattern: "*", path: "lib" })).toEqual(["lib"]);
    for (const t of [read!, grep!, glob!]) {
      expect(t.host.concurrencySafe).toBe(true);
      expect(t.outputSchema).toBeTypeOf("object");
      expect(Buffer.byteLength(t.description)).toBeLessThan(300);
    }
  });

  it("validates arguments: read's limit is capped at 2,000 and offset is 1-based", () => {
    const [read] = builtinFileTools();
    expect(read!.validateInput({ path: "a", offset: 0 }).ok).toBe(false);
    expect(read!.validateInput({ path: "a", limit: 2001 }).ok).toBe(false);
    expect(read!.validateInput({ path: "a", offset: 1, limit: 2000 }).ok).toBe(true);
  });
});
