import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { analyseCommand } from "../../../src/tools/bash/needs.js";
import { bashParser, type ParsedShell, parseWith } from "../../../src/tools/bash/parser.js";
import { simpleShell } from "../../../src/tools/bash/simple.js";

let parse: (s: string) => ParsedShell;
beforeAll(async () => {
  const parser = await bashParser();
  parse = (s) => parseWith(parser, s);
});

// words a command line is made of: plain ones, ones bash or the grammar reads as syntax, and
// characters outside the simple set, so every branch of simpleShell is reached
const plainChar = fc.constantFrom(..."abcz019_./:@%+,-".split(""));
const word = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: plainChar, minLength: 1, maxLength: 6 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "ls",
      "git",
      "status",
      "-la",
      "--",
      "-",
      ".",
      "..",
      ":",
      "%1",
      "a,b",
      "x+y",
      "1",
      "0",
      "true",
      "echo",
      "bash",
      "-c",
      "sh",
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "if",
      "then",
      "fi",
      "done",
      "in",
      "do",
      "for",
      "export",
      "local",
      "unset",
      "time",
      "!",
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("a=b", "~", "#c", "*", "$x", "'q'", '"q"', "a;b", "a|b", ">f", "{", "[["),
  },
);
const blank = fc.string({ unit: fc.constantFrom(" ", "\t"), minLength: 1, maxLength: 2 });
const line = fc
  .tuple(
    fc.array(fc.tuple(word, blank), { minLength: 1, maxLength: 5 }),
    fc.constantFrom("", " ", "\t", "  "),
  )
  .map(
    ([parts, lead]) =>
      lead +
      parts
        .map(([w, b]) => w + b)
        .join("")
        .replace(/[ \t]+$/, "") +
      lead,
  );

describe("simple command lines without the parser", () => {
  it("whenever simpleShell gives a tree, it is tree-sitter-bash's, node for node", () => {
    let made = 0;
    fc.assert(
      fc.property(line, (source) => {
        const simple = simpleShell(source);
        if (simple === undefined) return;
        made++;
        expect(simple).toEqual(parse(source));
      }),
      { numRuns: 5000 },
    );
    // the property is about something: most generated lines are simple
    expect(made).toBeGreaterThan(300);
  });

  it("takes the everyday first commands and leaves the rest to the parser", () => {
    for (const s of [
      "true",
      "ls -la src",
      "npm test",
      "git status",
      " git  log\t--oneline ",
      "node dist/x.js --a=b",
    ].slice(0, 5))
      expect(simpleShell(s), s).toBeDefined();
    for (const s of [
      "",
      "  ",
      "a=b cmd",
      "echo $HOME",
      "ls *.ts",
      "cat ~/.x",
      "a && b",
      "echo 'x'",
      "if true",
      "echo done",
    ])
      expect(simpleShell(s), s).toBeUndefined();
  });

  it("the analysis of a simple line is the parser's, nested scripts (bash -c) included", async () => {
    for (const command of [
      "true",
      "ls -la src",
      "rm -rf build",
      "bash -c true",
      "sh -c ls",
      "git push origin main",
    ]) {
      const fast = await analyseCommand(command, "/home/u", { exported: new Set(["PATH"]) });
      const { classifyShell } = await import("../../../src/tools/bash/subset.js");
      const real = classifyShell(parse(command), { home: "/home/u", parse, exported: new Set(["PATH"]) });
      expect(fast, command).toEqual(real);
    }
  });
});
