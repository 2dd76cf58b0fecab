import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { glob, renderGlob } from "../../../src/tools/glob/tool.js";
import { NOT_UTF8_NOTE, parseShownPath } from "../../../src/tools/shared/raw-path.js";
import { tempDir, writeTree } from "../../helpers/tmp.js";

function project(files: Record<string, string>, mtime: (name: string) => number = () => 1_700_000_000) {
  const dir = tempDir("tp-glob-");
  mkdirSync(path.join(dir, ".git"));
  writeTree(dir, files);
  for (const name of Object.keys(files)) utimesSync(path.join(dir, name), mtime(name), mtime(name));
  return { dir, ctx: { cwd: dir, workspace: dir, config: {}, signal: new AbortController().signal } };
}

describe("glob", () => {
  it("lists the 100 newest paths, counts the rest, and says where to go on", async () => {
    const files: Record<string, string> = { ".git/x.ts": "", ".gitignore": "gen/\n", "gen/skip.ts": "" };
    for (let i = 0; i < 150; i++) files[`src/m${String(i).padStart(3, "0")}.ts`] = "";
    files["README.md"] = "";
    // m000 oldest, m149 newest
    const { ctx } = project(files, (name) => 1_600_000_000 + (Number(/m(\d+)/.exec(name)?.[1]) || 0) * 60);
    const v = await glob({ pattern: "*.ts" }, ctx);
    expect(v.files).toHaveLength(100);
    expect(v.files[0]).toBe("src/m149.ts");
    expect(v.files[99]).toBe("src/m050.ts");
    expect(v).toMatchObject({ more: 50, total: 150, offset: 0, nextOffset: 100 });
    const r = renderGlob(v);
    expect(typeof r !== "string" && r.truncated).toBe(true);
    expect(typeof r !== "string" && r.nextOffset).toBe(100);
    expect(JSON.stringify(r)).toContain(
      "(files 1-100 of 150, newest first; 50 more: call glob again with the same arguments and offset=100)",
    );
    const rest = await glob({ pattern: "*.ts", offset: 100 }, ctx);
    expect(rest.files).toEqual(
      Array.from({ length: 50 }, (_, i) => `src/m${String(49 - i).padStart(3, "0")}.ts`),
    );
    expect(rest).toMatchObject({ more: 0, total: 150, offset: 100 });
    expect(rest).not.toHaveProperty("nextOffset");
    expect(renderGlob(rest)).toMatch(/\n\(files 101-150 of 150, newest first\)$/);
    // head_limit sets the page size
    const small = await glob({ pattern: "*.ts", head_limit: 3, offset: 1 }, ctx);
    expect(small.files).toEqual(["src/m148.ts", "src/m147.ts", "src/m146.ts"]);
    expect(small.nextOffset).toBe(4);
  });

  it("orders by modification time (to the sub-second the file system keeps), then by path", async () => {
    const { dir, ctx } = project({ "b.ts": "", "a.ts": "", "c/z.ts": "", "c.d.ts": "", "old.ts": "" });
    const t = 1_700_000_000;
    utimesSync(path.join(dir, "old.ts"), t - 10, t - 10);
    utimesSync(path.join(dir, "c/z.ts"), t + 0.5, t + 0.5);
    expect((await glob({ pattern: "*.ts" }, ctx)).files).toEqual([
      "c/z.ts",
      "a.ts",
      "b.ts",
      "c.d.ts",
      "old.ts",
    ]);
  });

  it("an offset past the end is an error that gives the count", async () => {
    const { ctx } = project({ "a.ts": "", "b.ts": "" });
    await expect(glob({ pattern: "*.ts", offset: 2 }, ctx)).rejects.toThrow(
      "offset 2 is past the end: the search found 2 files (offsets 0-1)",
    );
    expect((await glob({ pattern: "*.md", offset: 5 }, ctx)).files).toEqual([]);
  });

  it("a page fits the host's inline limit, and the next one starts where it stopped", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) files[`${"deep/".repeat(8)}file-${String(i).padStart(2, "0")}.txt`] = "";
    const { ctx } = project(files);
    const config = { "results.inlineMaxBytes": 1500 };
    const seen: string[] = [];
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const v = await glob({ pattern: "*.txt", offset }, { ...ctx, config });
      const r = renderGlob(v);
      const text = typeof r === "string" ? r : (r.content[0] as { text: string }).text;
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1500);
      seen.push(...v.files);
      offset = v.nextOffset;
    }
    expect(seen).toEqual(Object.keys(files).sort());
  });

  it("matches paths relative to the folder searched (same times: in path order)", async () => {
    const { ctx } = project({ "src/a/x.ts": "", "src/a.b/y.ts": "", "src/b.ts": "", "lib/c.ts": "" });
    expect((await glob({ pattern: "src/**/*.ts" }, ctx)).files).toEqual([
      "src/a/x.ts",
      "src/a.b/y.ts",
      "src/b.ts",
    ]);
    expect((await glob({ pattern: "*.ts", path: "src/a" }, ctx)).files).toEqual(["src/a/x.ts"]);
    expect(await glob({ pattern: "*.md" }, ctx)).toEqual({
      pattern: "*.md",
      files: [],
      offset: 0,
      total: 0,
      more: 0,
    });
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
    for (const n of names) {
      const file = Buffer.concat([Buffer.from(`${dir}/sub/`), n]);
      writeFileSync(file, "");
      // the same time as plain.ts: listed by path
      utimesSync(file, 1_700_000_000, 1_700_000_000);
    }
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
