import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { builtinFileTools } from "../../../src/tools/index.js";
import { comparePaths } from "../../../src/tools/search/order.js";
import { testHost, textOf } from "../../helpers/host.js";
import { tempDir } from "../../helpers/tmp.js";

// Following nextOffset from 0 to the end, as a model does through the host, yields every entry
// exactly once and in order, for random trees, page sizes, result limits, modes and context; every
// page fits the host's limits, so the host never cuts it again.

const NAMES = ["a.txt", "a/x.txt", "a.b/y.txt", "a-c.txt", "b.txt", "B.txt", "z/z/z.txt", "é.txt"];
const line = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("hit", "a hit b", "x", "", "hit hit", "é hit €", "nothing here") },
  { weight: 1, arbitrary: fc.constantFrom(`hit ${"w".repeat(700)}`, `${"€".repeat(400)} hit`, "h\u00e9it") },
);
const tree = fc
  .uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 5 })
  .chain((names) =>
    fc.tuple(
      fc.constant(names),
      fc.array(fc.array(line, { maxLength: 10 }), { minLength: names.length, maxLength: names.length }),
    ),
  );

interface Page {
  text: string;
  nextOffset: number | undefined;
}

/** What a model reads from a page's text: rows under their headers, and the footer's offset. */
function parse(text: string) {
  const footerOffset = /offset=(\d+)\)$/m.exec(text);
  const body = text.split("\n\n(")[0]!;
  return { body, footerOffset: footerOffset ? Number(footerOffset[1]) : undefined };
}

function project(names: readonly string[], files: readonly string[][]) {
  const ws = tempDir("tp-grep-paging-");
  mkdirSync(path.join(ws, ".git"));
  names.forEach((name, i) => {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), `${files[i]!.join("\n")}\n`);
    utimesSync(path.join(ws, name), 1_700_000_000 + i, 1_700_000_000 + i);
  });
  return ws;
}

async function follow(call: (offset: number) => Promise<Page>, limits: { inline: number; lineMax: number }) {
  const pages: string[] = [];
  let offset: number | undefined = 0;
  for (let n = 0; offset !== undefined; n++) {
    expect(n, "pages end").toBeLessThan(500);
    const page: Page = await call(offset);
    expect(Buffer.byteLength(page.text), "a page fits the inline limit").toBeLessThanOrEqual(limits.inline);
    expect(page.text).not.toMatch(/more characters\]|\[output (cut|too large)/);
    for (const row of page.text.split("\n")) {
      expect(row.length, "a row fits results.lineMaxChars").toBeLessThanOrEqual(limits.lineMax);
    }
    const { body, footerOffset } = parse(page.text);
    expect(footerOffset, "the text names the same offset").toBe(page.nextOffset);
    if (page.nextOffset !== undefined) expect(page.nextOffset).toBeGreaterThan(offset);
    pages.push(body);
    offset = page.nextOffset;
  }
  return pages;
}

const MARKER = / … \[line cut: (\d+) more bytes, (\d+) in all\]$/;
/** A shown row's text against the file's line: the same, or its start cut with a true marker. */
function sameLine(shown: string, original: string) {
  const cut = MARKER.exec(shown);
  if (!cut) return shown === original;
  const kept = shown.slice(0, cut.index);
  return (
    original.startsWith(kept) && Number(cut[1]) === Buffer.byteLength(original) - Buffer.byteLength(kept)
  );
}

describe("grep pages through the host: every entry exactly once", () => {
  it("property over random trees, modes, page sizes, limits and context", async () => {
    await fc.assert(
      fc.asyncProperty(
        tree,
        fc.constantFrom("content", "files_with_matches", "count"),
        fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
        fc.integer({ min: 700, max: 4000 }),
        fc.integer({ min: 160, max: 500 }),
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        async ([names, files], mode, headLimit, inline, lineMax, context, multiline) => {
          const ws = project(names, files);
          const { host } = testHost(builtinFileTools(), {
            workspace: ws,
            config: { "results.inlineMaxBytes": inline, "results.lineMaxChars": lineMax },
          });
          const args = {
            pattern: "hit",
            output_mode: mode,
            ...(headLimit === undefined ? {} : { head_limit: headLimit }),
            ...(mode === "content" && context > 0 ? { "-C": context } : {}),
            ...(multiline ? { multiline: true } : {}),
          };
          const pages = await follow(
            async (offset) => {
              const r = await host.call({ tool: "grep", args: { ...args, offset } });
              expect(r.isError, textOf(r)).toBe(false);
              expect(r.spillPath).toBeUndefined();
              return { text: textOf(r), nextOffset: r.nextOffset };
            },
            { inline, lineMax },
          );
          // the oracle: the files and lines that hold "hit", by path then line
          const byPath = names
            .map((name, i) => ({ name, lines: files[i]! }))
            .sort((a, b) => comparePaths(a.name, b.name));
          const hits = (l: string) =>
            multiline ? (l.match(/hit/g) ?? []).length : l.includes("hit") ? 1 : 0;
          const matching = byPath.filter((f) => f.lines.some((l) => l.includes("hit")));
          if (matching.length === 0) {
            expect(pages).toEqual(['No matches for "hit".']);
            return;
          }
          if (mode === "files_with_matches") {
            expect(pages.flatMap((p) => p.split("\n"))).toEqual(matching.map((f) => f.name));
          } else if (mode === "count") {
            expect(pages.flatMap((p) => p.split("\n"))).toEqual(
              matching.map((f) => `${f.name}: ${f.lines.reduce((n, l) => n + hits(l), 0)}`),
            );
          } else {
            const seen: string[] = [];
            for (const page of pages) {
              const shownMatches = new Map<string, number[]>();
              const contextRows: Array<[string, number, string]> = [];
              for (const group of page.split("\n\n")) {
                const [header, ...rows] = group.split("\n");
                const file = byPath.find((f) => f.name === header)!;
                expect(file, `a header names a file: ${header}`).toBeDefined();
                for (const row of rows) {
                  // the separator, and the note of a first match trimmed to fit a small page
                  if (row === "--" || / not shown, to fit the page: read the file there\)$/.test(row))
                    continue;
                  const m = /^(\d+)([:-]) (.*)$/s.exec(row)!;
                  expect(m, row).not.toBeNull();
                  const n = Number(m[1]);
                  expect(sameLine(m[3]!, file.lines[n - 1]!), `${header}:${n}`).toBe(true);
                  if (m[2] === ":") {
                    seen.push(`${header}:${n}`);
                    shownMatches.set(header!, [...(shownMatches.get(header!) ?? []), n]);
                  } else contextRows.push([header!, n, m[3]!]);
                }
              }
              // a context line is shown only beside a match of the same page and file, within -C
              for (const [file, n] of contextRows) {
                const near = (shownMatches.get(file) ?? []).some((m) => Math.abs(m - n) <= context);
                expect(near, `context ${file}:${n} belongs to a shown match`).toBe(true);
              }
            }
            const expected = matching.flatMap((f) =>
              f.lines.flatMap((l, i) => (l.includes("hit") ? [`${f.name}:${i + 1}`] : [])),
            );
            expect(seen).toEqual(expected);
          }
        },
      ),
      { numRuns: Number(process.env.PROP_RUNS ?? 30) },
    );
  });
});
