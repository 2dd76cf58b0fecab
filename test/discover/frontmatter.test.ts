import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { parseFrontmatter, skillBody } from "../../src/discover/frontmatter.js";
import { parseSimpleMapping } from "../../src/discover/simple-yaml.js";

describe("frontmatter", () => {
  it("the fast path reads exactly what yaml reads, or declines", () => {
    const word = fc.constantFrom(
      "name",
      "description",
      "a b",
      "it's",
      "x: y",
      "#c",
      " # c",
      "true",
      "no",
      "12",
      "-a",
      '"q"',
      "[x]",
      "{y}",
      "a:b",
      "~",
      "é",
      "|",
      ">",
      "tab\there",
      "null",
      ".5",
      "@at",
      "%p",
      "ok.",
      "   ",
      "",
    );
    const line = fc.tuple(
      fc.constantFrom("name", "description", "license", "x-y", "_k", "k"),
      fc.array(word, { maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 5 }), fc.boolean(), (rows, crlf) => {
        const text = rows.map(([k, v]) => `${k}: ${v.join(" ")}`).join(crlf ? "\r\n" : "\n");
        const simple = parseSimpleMapping(text, 2);
        if (!simple) return;
        const doc = parseDocument(text, { uniqueKeys: true });
        expect(doc.errors).toEqual([]);
        expect(simple.data).toEqual(doc.toJS() ?? {});
      }),
      { numRuns: 2000 },
    );
  });

  it("keys carry their file line; YAML errors carry line and column", () => {
    const ok = parseFrontmatter("---\nname: a\n\ndescription: b\n---\nbody");
    expect(ok).toMatchObject({ ok: true, lines: { name: 2, description: 4 } });
    const bad = parseFrontmatter("---\nname: a\ndescription: 'open\n---\n");
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/^frontmatter: line \d+, column \d+: invalid YAML/);
  });

  it("skillBody drops the frontmatter and leading blank lines", () => {
    expect(skillBody("---\nname: a\ndescription: b\n---\n\n\nHello\n")).toBe("Hello\n");
    expect(skillBody("No frontmatter\n")).toBe("No frontmatter\n");
  });
});
