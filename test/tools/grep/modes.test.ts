import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type GrepValue, grep, renderGrep } from "../../../src/tools/grep/tool.js";
import { tempDir, writeTree } from "../../helpers/tmp.js";

// grep's three output modes, context lines, multiline and file types, on the value and on the
// text the model reads.

const CONTEXT_FILE = ["a", "b", "hit one", "c", "d", "e", "f", "hit two", "hit three", "g", "h"].join("\n");

function project(files: Record<string, string>, config: Record<string, unknown> = {}) {
  const dir = tempDir("tp-grep-modes-");
  mkdirSync(path.join(dir, ".git"));
  writeTree(dir, files);
  return { dir, ctx: { cwd: dir, workspace: dir, config, signal: new AbortController().signal } };
}

const text = (v: GrepValue) => {
  const r = renderGrep(v);
  return typeof r === "string" ? r : r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
};

describe("grep output modes", () => {
  const files = { "f.txt": `${CONTEXT_FILE}\n`, "z/two.txt": "hit x\n", "a.md": "nothing\n" };

  it("files_with_matches is the default: the matching files by path, with their counts in the value", async () => {
    const { ctx } = project(files);
    const v = await grep({ pattern: "hit" }, ctx);
    expect(v.mode).toBe("files_with_matches");
    expect(v.files).toEqual([
      { path: "f.txt", count: 3 },
      { path: "z/two.txt", count: 1 },
    ]);
    expect(v).not.toHaveProperty("matches");
    expect(text(v)).toBe("f.txt\nz/two.txt\n\n(2 files with matches)");
  });

  it("count: matching lines per file", async () => {
    const { ctx } = project(files);
    const v = await grep({ pattern: "hit", output_mode: "count" }, ctx);
    expect(text(v)).toBe("f.txt: 3\nz/two.txt: 1\n\n(4 matching lines in 2 files)");
  });

  it("content: matching lines under their path", async () => {
    const { ctx } = project(files);
    const v = await grep({ pattern: "hit", output_mode: "content" }, ctx);
    expect(text(v)).toBe(
      "f.txt\n3: hit one\n8: hit two\n9: hit three\n\nz/two.txt\n1: hit x\n\n(4 matching lines in 2 files)",
    );
  });
});

describe("grep context lines", () => {
  const files = { "f.txt": `${CONTEXT_FILE}\n`, "z/two.txt": "x\nhit x\n" };
  const content = { pattern: "hit", output_mode: "content" } as const;

  it("-C: lines around each match, each once, `--` between groups that do not touch", async () => {
    const { ctx } = project(files);
    expect(text(await grep({ ...content, "-C": 1 }, ctx))).toBe(
      [
        "f.txt",
        "2- b",
        "3: hit one",
        "4- c",
        "--",
        "7- f",
        "8: hit two",
        "9: hit three",
        "10- g",
        "",
        "z/two.txt",
        "1- x",
        "2: hit x",
        "",
        "(4 matching lines in 2 files)",
      ].join("\n"),
    );
    // lines between two matches go to the one they are nearest after, within -A; the rest before
    const wide = await grep({ ...content, "-C": 3, path: "f.txt" }, ctx);
    expect(
      wide.matches!.map((m) => [m.line, m.before?.map((r) => r.line), m.after?.map((r) => r.line)]),
    ).toEqual([
      [3, [1, 2], [4, 5, 6]],
      [8, [7], undefined],
      [9, undefined, [10, 11]],
    ]);
    expect(text(wide)).not.toContain("--");
    expect(wide.context).toEqual({ before: 3, after: 3 });
  });

  it("-A and -B set one side each, and each overrides -C on its side", async () => {
    const { ctx } = project(files);
    const rows = async (args: object) =>
      text(await grep({ ...content, path: "f.txt", ...args }, ctx))
        .split("\n")
        .slice(1, -2);
    expect(await rows({ "-A": 2 })).toEqual([
      "3: hit one",
      "4- c",
      "5- d",
      "--",
      "8: hit two",
      "9: hit three",
      "10- g",
      "11- h",
    ]);
    const twoBefore = ["1- a", "2- b", "3: hit one", "--", "6- e", "7- f", "8: hit two", "9: hit three"];
    expect(await rows({ "-B": 2 })).toEqual(twoBefore);
    expect(await rows({ "-C": 2, "-A": 0 })).toEqual(twoBefore);
  });

  it("context belongs to the page's matches only: paging by one match", async () => {
    const { ctx } = project(files);
    const pages: string[] = [];
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const v: GrepValue = await grep({ ...content, "-C": 1, head_limit: 1, offset }, ctx);
      pages.push(text(v).split("\n\n(")[0]!);
      offset = v.nextOffset;
    }
    expect(pages).toEqual([
      "f.txt\n2- b\n3: hit one\n4- c",
      "f.txt\n7- f\n8: hit two",
      "f.txt\n9: hit three\n10- g",
      "z/two.txt\n1- x\n2: hit x",
    ]);
  });

  it("context needs content mode, and says so", async () => {
    const { ctx } = project(files);
    await expect(grep({ pattern: "hit", "-C": 2 }, ctx)).rejects.toThrow(
      '-A, -B and -C show lines around each match, so they need output_mode "content" (this call\'s is "files_with_matches")',
    );
    await expect(grep({ pattern: "hit", output_mode: "count", "-A": 1 }, ctx)).rejects.toThrow(
      /need output_mode "content"/,
    );
  });

  it("a long context line is cut once, with the marker, like a match", async () => {
    const { ctx } = project({ "l.txt": `${"é".repeat(3000)}\nhit\n` });
    const v = await grep({ ...content, "-B": 1 }, ctx);
    const row = v.matches![0]!.before![0]!;
    expect(row.cut).toBe(true);
    expect(row.text).toMatch(/ … \[line cut: \d+ more bytes, 6000 in all\]$/);
    expect(`${row.line}- ${row.text}`.length).toBeLessThanOrEqual(2000);
  });
});

describe("grep multiline", () => {
  const files = {
    "m.rs": "struct A {\n  x: 1,\n  field: 2\n}\nstruct B { field }\nnothing\n",
    "n.rs": "struct C {\n}\n",
  };
  const pattern = String.raw`struct \w+ \{.*?field`;

  it("a match may span lines: each of its lines is shown, and an entry is a match", async () => {
    const { ctx } = project(files);
    const v = await grep({ pattern, multiline: true, output_mode: "content" }, ctx);
    expect(text(v)).toBe(
      "m.rs\n1: struct A {\n2:   x: 1,\n3:   field: 2\n5: struct B { field }\n\n(2 matches in 1 file)",
    );
    expect(v.unit).toBe("matches");
    expect(text(await grep({ pattern, multiline: true, output_mode: "count" }, ctx))).toBe(
      "m.rs: 2\n\n(2 matches in 1 file)",
    );
    // without multiline the pattern cannot see past a line's end
    expect(text(await grep({ pattern, output_mode: "count" }, ctx))).toBe(
      "m.rs: 1\n\n(1 matching line in 1 file)",
    );
    const second = await grep(
      { pattern, multiline: true, output_mode: "content", head_limit: 1, offset: 1 },
      ctx,
    );
    expect(second.matches!.map((m) => m.line)).toEqual([5]);
  });

  it("a match longer than the page is cut to fit and says what is left out", async () => {
    const long = `begin\n${Array.from({ length: 300 }, (_, i) => `line ${i} ${"x".repeat(20)}`).join("\n")}\nend\n\nbegin again end\n`;
    const { ctx } = project({ "big.txt": long }, { "results.inlineMaxBytes": 2000 });
    const v = await grep({ pattern: "begin.*?end", multiline: true, output_mode: "content" }, ctx);
    const t = text(v);
    expect(Buffer.byteLength(t)).toBeLessThanOrEqual(2000);
    const m = v.matches![0]!;
    expect(m.line).toBe(1);
    expect(m.omitted!.lines).toBe(302 - 1 - (m.continued?.length ?? 0));
    expect(t).toContain(
      `(${m.omitted!.lines} more lines of this match not shown, to fit the page: read the file there)`,
    );
    expect(v.nextOffset).toBe(1);
    const next = await grep(
      { pattern: "begin.*?end", multiline: true, output_mode: "content", offset: 1 },
      ctx,
    );
    expect(next.matches!.map((x) => x.text)).toEqual(["begin again end"]);
  });
});

describe("grep file types", () => {
  const files = { "a.js": "hit\n", "b.ts": "hit\n", "c.py": "hit\n", "d.ts": "hit\n", "e.txt": "hit\n" };

  it("type narrows to ripgrep's file type, and narrows together with a glob", async () => {
    const { ctx } = project(files);
    const paths = async (args: object) =>
      (await grep({ pattern: "hit", ...args }, ctx)).files!.map((f) => f.path);
    expect(await paths({ type: "js" })).toEqual(["a.js"]);
    expect(await paths({ type: "ts" })).toEqual(["b.ts", "d.ts"]);
    expect(await paths({ type: "ts", glob: "b*" })).toEqual(["b.ts"]);
    expect(await paths({ type: "ts", glob: "!b*" })).toEqual(["d.ts"]);
    expect(await paths({ type: "py", glob: "*.ts" })).toEqual([]);
    expect(await paths({ glob: "*.ts" })).toEqual(["b.ts", "d.ts"]);
  });

  it("a type keeps the ignore rules: .gitignore'd files and .git stay out", async () => {
    const { ctx } = project({ ...files, ".gitignore": "gen/\n", "gen/x.ts": "hit\n", ".git/y.ts": "hit\n" });
    const v = await grep({ pattern: "hit", type: "ts", glob: "*.ts" }, ctx);
    expect(v.files!.map((f) => f.path)).toEqual(["b.ts", "d.ts"]);
  });

  it("an unknown or malformed type is a clear error", async () => {
    const { ctx } = project(files);
    await expect(grep({ pattern: "hit", type: "nope" }, ctx)).rejects.toThrow(
      'unknown file type "nope": give a ripgrep type name (js, ts, py, rust, go, java, ...) or use glob',
    );
    await expect(grep({ pattern: "hit", type: "a b" }, ctx)).rejects.toThrow(/invalid file type "a b"/);
  });
});

describe("grep paging edges", () => {
  it("an offset past the end is an error that gives the size; head_limit 0 is a full page", async () => {
    const { ctx } = project({ "a.txt": "hit\nhit\n", "b.txt": "hit\n" });
    await expect(grep({ pattern: "hit", output_mode: "content", offset: 3 }, ctx)).rejects.toThrow(
      "offset 3 is past the end: the search found 3 matching lines (offsets 0-2)",
    );
    await expect(grep({ pattern: "hit", offset: 2 }, ctx)).rejects.toThrow(/found 2 files/);
    const all = await grep({ pattern: "hit", output_mode: "content", head_limit: 0 }, ctx);
    expect(all.matches).toHaveLength(3);
    expect(all).not.toHaveProperty("nextOffset");
    expect(text(await grep({ pattern: "hit", head_limit: 1, offset: 1 }, ctx))).toBe(
      "b.txt\n\n(files 2 of 2 with matches, by path)",
    );
  });
});
