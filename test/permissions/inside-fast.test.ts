// The shortcuts a search's per-file check takes (isInside without path.relative, a walked path
// taken as its own absolute form) answer exactly what path.relative and path.resolve answer.
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isInside } from "../../src/permissions/paths.js";
import { requestPathResolver } from "../../src/permissions/request.js";
import { tempDir } from "../helpers/tmp.js";

/** What isInside answered before the shortcut (on a case-sensitive filesystem). */
function reference(candidate: string, root: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

const segment = fc.constantFrom("a", "b", "ws", ".", "..", "..x", ".git", "x..", "", "ws2", "...");
const absolute = fc.array(segment, { minLength: 0, maxLength: 6 }).map((parts) => `/${parts.join("/")}`);

describe("the per-file shortcuts", () => {
  it("isInside agrees with path.relative on any pair of paths, normal or not", () => {
    // a root that is no real folder: case folding is probed on it, and it is case-sensitive here
    const base = tempDir("tp-inside-");
    fc.assert(
      fc.property(absolute, absolute, (c, r) => {
        const root = path.join(base, r);
        const candidate = path.join(base, c).replace(/\/$/, "") + (c.endsWith("/") ? "/" : "");
        const raw = `${base}${c}`;
        for (const x of [candidate, raw])
          expect(isInside(x, root), `${x} in ${root}`).toBe(reference(x, root));
      }),
      { numRuns: 2000 },
    );
  });

  it("a walked path (real: true) resolves as path.resolve would have it", () => {
    const ws = tempDir("tp-walk-");
    const resolve = requestPathResolver({ cwd: ws, workspace: ws, extraRoots: [] });
    fc.assert(
      fc.property(absolute, (tail) => {
        const input = `${ws}${tail}`;
        const got = resolve(input, { real: true });
        const absoluteForm = path.resolve(ws, input);
        expect(got.lexical).toBe(absoluteForm);
        expect(got.real).toBe(absoluteForm);
        expect(got.inside).toBe(reference(absoluteForm, ws));
        if (got.inside) expect(got.relative).toBe(path.relative(ws, absoluteForm));
        const lexicalRel = path.relative(ws, absoluteForm);
        if (!lexicalRel.startsWith("..")) expect(got.lexicalRelative).toBe(lexicalRel);
      }),
      { numRuns: 2000 },
    );
  });
});
