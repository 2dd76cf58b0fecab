import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { glob, renderGlob } from "../../src/tools/glob.js";
import { tempDir, writeTree } from "../helpers/tmp.js";

function project(files: Record<string, string>) {
  const dir = tempDir("tp-glob-");
  mkdirSync(path.join(dir, ".git"));
  writeTree(dir, files);
  return { dir, ctx: { cwd: dir, workspace: dir, config: {}, signal: new AbortController().signal } };
}

describe("glob", () => {
  it("lists 100 sorted paths and counts the rest", async () => {
    const files: Record<string, string> = { ".git/x.ts": "", ".gitignore": "gen/\n", "gen/skip.ts": "" };
    for (let i = 0; i < 150; i++) files[`src/m${String(i).padStart(3, "0")}.ts`] = "";
    files["README.md"] = "";
    const { ctx } = project(files);
    const v = await glob({ pattern: "*.ts" }, ctx);
    expect(v.files).toHaveLength(100);
    expect(v.files[0]).toBe("src/m000.ts");
    expect(v.files[99]).toBe("src/m099.ts");
    expect(v.more).toBe(50);
    const r = renderGlob(v);
    expect(typeof r !== "string" && r.truncated).toBe(true);
    expect(JSON.stringify(r)).toContain("50 more files match");
  });

  it("matches paths relative to the folder searched, in path order", async () => {
    const { ctx } = project({ "src/a/x.ts": "", "src/a.b/y.ts": "", "src/b.ts": "", "lib/c.ts": "" });
    expect((await glob({ pattern: "src/**/*.ts" }, ctx)).files).toEqual([
      "src/a/x.ts",
      "src/a.b/y.ts",
      "src/b.ts",
    ]);
    expect((await glob({ pattern: "*.ts", path: "src/a" }, ctx)).files).toEqual(["src/a/x.ts"]);
    expect(await glob({ pattern: "*.md" }, ctx)).toEqual({ pattern: "*.md", files: [], more: 0 });
  });

  it("an invalid glob or an outside path is a clear error", async () => {
    const { ctx } = project({ "a.ts": "" });
    await expect(glob({ pattern: "a[" }, ctx)).rejects.toThrow(/invalid glob "a\["/);
    await expect(glob({ pattern: "*", path: "/etc" }, ctx)).rejects.toThrow(/outside the workspace/);
  });
});
