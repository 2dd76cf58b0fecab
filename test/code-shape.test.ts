// The shape the developers' guide asks of the code, checked so it holds after every change: no
// import circles, no source file over 400 lines without a first comment saying why, one folder
// per built-in tool.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/cli.js";

const SRC = path.join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.tsx?$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

/** The files a source file imports by relative path: static, type-only, re-exports and dynamic. */
function relativeImports(file: string, known: ReadonlySet<string>): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/(?:(?:import|export)\s[^;]*?from\s+|import\()\s*"(\.{1,2}\/[^"]+)"/g)) {
    const base = path.resolve(path.dirname(file), m[1]!);
    const candidates = [
      base.replace(/\.js$/, ".ts"),
      base.replace(/\.js$/, ".tsx"),
      path.join(base, "index.ts"),
    ];
    const hit = candidates.find((c) => known.has(c));
    if (hit) out.push(hit);
  }
  return out;
}

/** Strongly connected components with more than one file (Tarjan): each is an import circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(path.relative(ROOT, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("code shape", () => {
  const files = sourceFiles(SRC);
  const known = new Set(files);

  it("no two source files import each other, directly or around a circle", () => {
    const graph = new Map(files.map((f) => [f, relativeImports(f, known)]));
    expect(circles(graph)).toEqual([]);
    // the check sees imports: a file everyone uses has importers
    expect([...graph.values()].flat()).toContain(path.join(SRC, "declare", "types.ts"));
  });

  it("no source file over 400 lines unless its first comment says why", () => {
    const long = files
      .map((f) => ({ f, text: readFileSync(f, "utf8") }))
      .filter(({ text }) => text.split("\n").length > 400)
      .filter(({ text }) => !/^\/\/[^\n]*400 lines|^\/\/[\s\S]{0,400}?over 400 lines/i.test(text))
      .map(({ f }) => path.relative(ROOT, f));
    expect(long).toEqual([]);
  });

  it("one folder per built-in tool: src/tools/index.ts is the only loose file", () => {
    const loose = readdirSync(path.join(SRC, "tools"), { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
    expect(loose).toEqual(["index.ts"]);
    for (const tool of ["read", "grep", "glob", "edit", "bash", "skill"])
      expect(readdirSync(path.join(SRC, "tools", tool)).length, tool).toBeGreaterThan(0);
  });
});
