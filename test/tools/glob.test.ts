import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { glob, renderGlob } from "../../src/tools/glob.js";
import { NOT_UTF8_NOTE, parseShownPath } from "../../src/tools/raw-path.js";
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

describe("glob: names that are not UTF-8", () => {
  it("lists them escaped, losslessly, with their bytes; UTF-8 names unchanged", async () => {
    const { dir, ctx } = project({ "sub/plain.ts": "" });
    const names = [Buffer.from([0x61, 0xff, 0x2e, 0x74, 0x73]), Buffer.from([0x61, 0xfe, 0x2e, 0x74, 0x73])];
    for (const n of names) writeFileSync(Buffer.concat([Buffer.from(`${dir}/sub/`), n]), "");
    for (const [args, prefix] of [
      [{ pattern: "*.ts" }, "sub/"],
      [{ pattern: "*.ts", path: "sub" }, "sub/"],
    ] as const) {
      const v = await glob(args, ctx);
      expect(v.files).toEqual([`${prefix}a\\xFE.ts`, `${prefix}a\\xFF.ts`, `${prefix}plain.ts`]);
      expect(Object.keys(v.pathBytes ?? {})).toEqual([`${prefix}a\\xFE.ts`, `${prefix}a\\xFF.ts`]);
      for (const [shown, b64] of Object.entries(v.pathBytes ?? {})) {
        const bytes = Buffer.from(b64, "base64");
        expect(parseShownPath(shown).equals(bytes)).toBe(true);
        expect(existsSync(Buffer.concat([Buffer.from(`${dir}/`), bytes]))).toBe(true);
      }
      expect(renderGlob(v)).toBe(
        `${prefix}a\\xFE.ts${NOT_UTF8_NOTE}\n${prefix}a\\xFF.ts${NOT_UTF8_NOTE}\n${prefix}plain.ts`,
      );
    }
    expect(await glob({ pattern: "plain.ts" }, ctx)).not.toHaveProperty("pathBytes");
  });
});
