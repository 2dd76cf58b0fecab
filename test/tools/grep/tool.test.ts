import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type GrepValue, grep, grepTool, renderGrep } from "../../../src/tools/grep/tool.js";
import { comparePaths, sortByPath } from "../../../src/tools/search/order.js";
import { cutToFit } from "../../../src/tools/shared/line-cut.js";
import { parseShownPath, showPath } from "../../../src/tools/shared/raw-path.js";
import { progress } from "../../../src/util/progress.js";
import { tempDir, writeTree } from "../../helpers/tmp.js";

function project() {
  const dir = tempDir("tp-grep-");
  mkdirSync(path.join(dir, ".git"));
  writeTree(dir, {
    ".git/config": "needle in git\n",
    ".gitignore": "ignored/\n",
    "ignored/x.ts": "needle ignored\n",
    "b.ts": "one\nneedle b2\nthree\nneedle b4\n",
    "a.ts": "needle a1\n",
    "a.b/z.ts": "needle in a.b\n",
    "a/y.js": "Needle upper\nneedle a/y2\n",
    "sub/deep/c.ts": "x\nx\nneedle c3\n",
    ".hidden.ts": "needle hidden\n",
  });
  return { dir, ctx: { cwd: dir, workspace: dir, config: {}, signal: new AbortController().signal } };
}

const where = (v: Awaited<ReturnType<typeof grep>>) => (v.matches ?? []).map((m) => `${m.path}:${m.line}`);
/** content mode: the matching lines (files_with_matches is the default, as in Claude Code). */
const C = { output_mode: "content" } as const;

describe("grep", () => {
  it("orders by path then line, skips .git and ignored files, includes dotfiles", async () => {
    const { ctx } = project();
    const v = await grep({ pattern: "needle", ...C }, ctx);
    expect(where(v)).toEqual([
      ".hidden.ts:1",
      "a/y.js:2",
      "a.b/z.ts:1",
      "a.ts:1",
      "b.ts:2",
      "b.ts:4",
      "sub/deep/c.ts:3",
    ]);
    expect(v).toMatchObject({ totalMatches: 7, filesWithMatches: 6 });
    expect(v).not.toHaveProperty("nextOffset");
    expect(renderGrep(v)).toContain("b.ts\n2: needle b2\n4: needle b4");
    expect(renderGrep(v)).toMatch(/\n\n\(7 matching lines in 6 files\)$/);
  });

  it("stops at the cap with the first matches by path, counts the rest, and says where to go on", async () => {
    const { ctx } = project();
    const v = await grep({ pattern: "needle", ...C }, { ...ctx, config: { "grep.maxMatches": 3 } });
    expect(where(v)).toEqual([".hidden.ts:1", "a/y.js:2", "a.b/z.ts:1"]);
    expect(v).toMatchObject({ totalMatches: 7, nextOffset: 3, offset: 0, end: 3 });
    const r = renderGrep(v);
    expect(typeof r !== "string" && r.truncated).toBe(true);
    expect(typeof r !== "string" && r.nextOffset).toBe(3);
    expect(JSON.stringify(r)).toContain(
      "(matching lines 1-3 of 7 in 6 files, by path; more follow: call grep again with the same arguments and offset=3)",
    );
  });

  it("is deterministic when many files match in parallel", async () => {
    const dir = tempDir("tp-grep-many-");
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`d${i % 7}/f${i}.txt`] = "hit\nmiss\nhit\n".repeat(3);
    writeTree(dir, files);
    const ctx = { cwd: dir, workspace: dir, config: {}, signal: new AbortController().signal };
    const a = await grep({ pattern: "hit", ...C }, ctx);
    const b = await grep({ pattern: "hit", ...C }, ctx);
    expect(a.matches).toHaveLength(250);
    expect(a).toEqual(b);
    const keys = a.matches!.map((m) => [m.path, m.line] as const);
    const sorted = [...keys].sort((x, y) => comparePaths(x[0], y[0]) || x[1] - y[1]);
    expect(keys).toEqual(sorted);
    expect(a.totalMatches).toBe(300 * 6);
  });

  it("options: glob, path, case, literal", async () => {
    const { ctx } = project();
    expect(where(await grep({ pattern: "needle", glob: "*.js", ...C }, ctx))).toEqual(["a/y.js:2"]);
    expect(where(await grep({ pattern: "needle", ignore_case: true, glob: "*.js", ...C }, ctx))).toEqual([
      "a/y.js:1",
      "a/y.js:2",
    ]);
    expect(where(await grep({ pattern: "needle", path: "sub", ...C }, ctx))).toEqual(["sub/deep/c.ts:3"]);
    expect(where(await grep({ pattern: "needle", path: "b.ts", ...C }, ctx))).toEqual(["b.ts:2", "b.ts:4"]);
    expect(where(await grep({ pattern: "a.b", literal: true, ...C }, ctx))).toEqual(["a.b/z.ts:1"]);
  });

  it("an invalid regex is a clear error", async () => {
    const { ctx } = project();
    await expect(grep({ pattern: "needle(" }, ctx)).rejects.toThrow(
      /invalid regex "needle\(": .*unclosed group.*literal: true/,
    );
  });

  it("no matches is an empty result, not an error", async () => {
    const { ctx } = project();
    for (const output_mode of ["content", "files_with_matches", "count"] as const) {
      const v = await grep({ pattern: "zzzz", output_mode }, ctx);
      expect(v).toMatchObject({ totalEntries: 0, totalMatches: 0, filesWithMatches: 0 });
      expect(renderGrep(v)).toBe('No matches for "zzzz".');
    }
  });

  it("cuts long lines at 2,000 bytes on a character boundary, with a marker", async () => {
    const { dir, ctx } = project();
    writeTree(dir, { "long.txt": `needle ${"€".repeat(3000)}\n` });
    const v = await grep({ pattern: "needle", path: "long.txt", ...C }, ctx);
    const m = v.matches![0]!;
    expect(m.cut).toBe(true);
    expect(m.text).not.toContain("\uFFFD");
    const shown = m.text.replace(/ … \[line cut: .*$/, "");
    // the marker gives the true remainder, and the row as rendered fits the line limit
    expect(m.text).toBe(`${shown} … [line cut: ${9007 - Buffer.byteLength(shown)} more bytes, 9007 in all]`);
    expect(Buffer.byteLength(m.text)).toBeLessThanOrEqual(2000);
    expect(`${m.line}: ${m.text}`.length).toBeLessThanOrEqual(2000);
    expect(Buffer.byteLength(shown)).toBeGreaterThan(1900);
  });

  it("over the raw output cap it fails with advice, never parsing a cut stream", async () => {
    const { dir, ctx } = project();
    writeTree(dir, { "wide.txt": `needle ${"w".repeat(5000)}\n`.repeat(20) });
    await expect(
      grep(
        { pattern: "needle", path: "wide.txt", ...C },
        { ...ctx, config: { "results.rawMaxBytes": 20_000 } },
      ),
    ).rejects.toThrow(
      /over 20000 bytes of output.*narrow it with a more specific pattern, a path, or a glob/,
    );
  });

  it("a path outside the workspace is refused", async () => {
    const { ctx } = project();
    await expect(grep({ pattern: "x", path: ".." }, ctx)).rejects.toThrow(/outside the workspace/);
  });
});

describe("search helpers", () => {
  it("comparePaths orders component by component", () => {
    const paths = ["a.b/z", "a/y", "a", "a/y/z", "ab", "a-c"];
    expect([...paths].sort(comparePaths)).toEqual(["a", "a/y", "a/y/z", "a-c", "a.b/z", "ab"]);
  });

  it("cutToFit never splits a character or a surrogate pair", () => {
    expect(cutToFit("ab", 5, 5)).toBe("ab");
    expect(cutToFit("€€", 10, 4)).toBe("€");
    expect(cutToFit("a😀b", 2, 100)).toBe("a");
    expect(cutToFit("a😀b", 3, 100)).toBe("a😀");
    expect(cutToFit("a😀b", 3, 4)).toBe("a");
  });
});

describe("grep: file names that are not UTF-8", () => {
  // Linux allows any bytes but "/" and NUL in a name; these three would all decode to "a\uFFFD.txt"
  const names = [
    Buffer.from([0x61, 0xff, 0x2e, 0x74, 0x78, 0x74]), // a\xFF.txt
    Buffer.from([0x61, 0xfe, 0x2e, 0x74, 0x78, 0x74]), // a\xFE.txt
    Buffer.concat([Buffer.from("sub/caf"), Buffer.from([0xe9]), Buffer.from(" \\ é.txt")]), // Latin-1 é
  ];

  function rawProject() {
    const dir = tempDir("tp-grep-raw-");
    mkdirSync(path.join(dir, "sub"));
    names.forEach((name, i) => {
      writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), name]), `miss\nneedle ${i}\n`);
    });
    writeFileSync(path.join(dir, "plain.txt"), "needle plain\n");
    return { cwd: dir, workspace: dir, config: {}, signal: new AbortController().signal };
  }

  it("finds the matches in each, with a lossless name and the raw bytes", async () => {
    const ctx = rawProject();
    const v = await grep({ pattern: "needle", ...C }, ctx);
    expect(v.matches!.map((m) => [m.path, m.line, m.text])).toEqual([
      ["a\\xFE.txt", 2, "needle 1"],
      ["a\\xFF.txt", 2, "needle 0"],
      ["plain.txt", 1, "needle plain"],
      ["sub/caf\\xE9 \\\\ é.txt", 2, "needle 2"],
    ]);
    expect(v).toMatchObject({ totalMatches: 4, filesWithMatches: 4 });
    // the bytes name the very file, and the shown form parses back to them
    for (const m of v.matches!.filter((x) => x.pathBytes !== undefined)) {
      const bytes = Buffer.from(m.pathBytes!, "base64");
      expect(parseShownPath(m.path).equals(bytes)).toBe(true);
      const file = Buffer.concat([Buffer.from(`${ctx.cwd}/`), bytes]);
      expect(readFileSync(file, "utf8")).toContain(m.text);
    }
    expect(v.matches!.find((m) => m.path === "plain.txt")).not.toHaveProperty("pathBytes");
    expect(renderGrep(v)).toContain(
      "a\\xFF.txt  (name not UTF-8: each \\xHH is one raw byte, \\\\ a backslash)\n2: needle 0",
    );
  });

  it("finds them under a path argument and at a cap too", async () => {
    const ctx = rawProject();
    const v = await grep({ pattern: "needle", path: "sub", ...C }, ctx);
    expect(v.matches!.map((m) => m.path)).toEqual(["sub/caf\\xE9 \\\\ é.txt"]);
    const capped = await grep({ pattern: "needle", ...C }, { ...ctx, config: { "grep.maxMatches": 2 } });
    expect(capped.matches!.map((m) => m.path)).toEqual(["a\\xFE.txt", "a\\xFF.txt"]);
    expect(capped).toMatchObject({ totalMatches: 4, nextOffset: 2 });
    // the next page goes on from there, by the same raw names
    const rest = await grep(
      { pattern: "needle", ...C, offset: 2 },
      { ...ctx, config: { "grep.maxMatches": 2 } },
    );
    expect(rest.matches!.map((m) => m.path)).toEqual(["plain.txt", "sub/caf\\xE9 \\\\ é.txt"]);
    expect(rest).not.toHaveProperty("nextOffset");
    // files_with_matches and count show the same names, with their bytes
    const files = await grep({ pattern: "needle" }, ctx);
    expect(files.files!.map((f) => f.path)).toEqual([
      "a\\xFE.txt",
      "a\\xFF.txt",
      "plain.txt",
      "sub/caf\\xE9 \\\\ é.txt",
    ]);
    expect(Buffer.from(files.files![0]!.pathBytes!, "base64").equals(names[1]!)).toBe(true);
    expect(renderGrep(await grep({ pattern: "needle", output_mode: "count" }, ctx))).toContain(
      "a\\xFF.txt: 1  (name not UTF-8",
    );
  });

  it("showPath is reversible for any bytes, and leaves valid UTF-8 runs as text", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (arr) => {
        const bytes = Buffer.from(arr);
        expect(parseShownPath(showPath(bytes)).equals(bytes)).toBe(true);
      }),
      { numRuns: 500 },
    );
    expect(showPath(Buffer.from([0x61, 0xc3, 0xa9, 0xc3, 0x5c, 0xed, 0xa0, 0x80]))).toBe(
      "aé\\xC3\\\\\\xED\\xA0\\x80",
    );
  });
});

describe("grep: progress", () => {
  it("the progress callback is told the running counts of both passes, then done", async () => {
    const { ctx } = project();
    const calls: [number, number | undefined, string | undefined][] = [];
    let done = 0;
    const v = await grep({ pattern: "needle", ...C }, ctx, {
      progress: { update: (d, t, n) => calls.push([d, t, n]), note: () => {}, done: () => done++ },
    });
    const pass1 = calls.filter(([, total]) => total === undefined);
    // one update per matching file, counts only growing, ending at the totals
    expect(pass1).toHaveLength(v.filesWithMatches);
    expect(pass1.map(([d]) => d)).toEqual([...pass1.map(([d]) => d)].sort((a, b) => a - b));
    expect(pass1.at(-1)).toEqual([7, undefined, "matching lines in 6 files"]);
    expect(v.matches).toHaveLength(7);
    expect(calls.at(-1)).toEqual([7, 7, "matches read"]);
    expect(done).toBe(1);
    const capped = await grep(
      { pattern: "needle", ...C },
      { ...ctx, config: { "grep.maxMatches": 3 } },
      {
        progress: { update: (d, t, n) => calls.push([d, t, n]), note: () => {}, done: () => done++ },
      },
    );
    expect(calls.at(-1)).toEqual([capped.matches!.length, 3, "matches read"]);
  });

  it("grepTool draws through the factory on a terminal, and writes nothing when not one", async () => {
    const { ctx } = project();
    for (const isTTY of [true, false]) {
      const written: string[] = [];
      const labels: string[] = [];
      const tool = grepTool({
        progress: (label) => {
          labels.push(label);
          return progress(label, { isTTY, write: (t: string) => written.push(t) });
        },
      });
      const v = (await tool.host.execute({ pattern: "needle", ...C }, ctx)) as GrepValue;
      expect(v.totalMatches).toBe(7);
      expect(labels).toEqual(["grep"]);
      if (isTTY) {
        expect(written[0]).toMatch(/^\r\x1b\[Kgrep \d+ matching lines? in 1 file$/);
        expect(written).toContain("\r\x1b[Kgrep 7/7 matches read");
        expect(written.at(-1)).toBe("\r\x1b[K");
      } else {
        expect(written).toEqual([]);
      }
    }
  });
});

describe("sortByPath", () => {
  it("orders as comparePaths does, for any names", () => {
    const name = fc.array(fc.constantFrom("a", "b", ".", "-", "/", "é", "Z", "0", "😀"), { maxLength: 8 });
    fc.assert(
      fc.property(fc.array(name.map((cs) => cs.join(""))), (paths) => {
        expect(sortByPath(paths, (p) => p)).toEqual([...paths].sort(comparePaths));
      }),
      { numRuns: 500 },
    );
  });
});
