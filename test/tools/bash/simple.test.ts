import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { analyseCommand } from "../../../src/tools/bash/analyse.js";
import { bashParser, type ParsedShell } from "../../../src/tools/bash/parser.js";
import { simpleShell } from "../../../src/tools/bash/simple.js";

let parse: (s: string) => ParsedShell;
beforeAll(async () => {
  const parser = await bashParser();
  parse = (s) => parser.parse(s);
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
  {
    // quotes the simple path takes, and ones it must leave (an expansion, a backslash, a quote run
    // into a word, one left open, a newline inside)
    weight: 2,
    arbitrary: fc.constantFrom(
      '"a b"',
      "'a b'",
      '""',
      "''",
      '"$x"',
      '"${x}"',
      '"a\\b"',
      '"a`b`"',
      "'$HOME'",
      'a"b"',
      '"a"b',
      "'a'\"b\"",
      '"open',
      "'open",
      '"a\nb"',
      "'a\nb'",
      '"x#y!z"',
      "'a\"b'",
      '"a\'b"',
      '"-1"',
      "'if'",
    ),
  },
);
/** Words the simple path takes (and numbers, and names it must leave as words). */
const cleanPlain = [
  {
    weight: 4,
    arbitrary: fc.string({ unit: fc.constantFrom(..."abz_./".split("")), minLength: 1, maxLength: 5 }),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "ls",
      "git",
      "status",
      "-la",
      "--",
      "npm",
      "test",
      "tail",
      "-20",
      "12",
      "a:b",
      "x+y",
    ),
  },
] as const;
const cleanWord = fc.oneof(
  ...cleanPlain,
  {
    // quoted arguments (a command name is never quoted here: the simple path leaves that to the parser)
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom("'", '"'),
        // non-ASCII too: the parser's offsets are UTF-16 units, as the simple path's are
        fc.string({
          unit: fc.constantFrom(..."ab .#!*~;|&<>()'{}=-".split(""), "é", "日", "😀"),
          maxLength: 6,
        }),
      )
      .filter(([q, body]) => !body.includes(q))
      .map(([q, body]) => `${q}${body}${q}`),
  },
  {
    // variables, lone and in double quotes, among text (`$x`, `"a $HOME/b"`, `"${x}y"`)
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.boolean(),
        fc.array(
          fc.oneof(
            fc.constantFrom("$x", "$HOME", "${x}", "$_a1", "$1", "$?", "$", "${x", "$a[1]"),
            fc.string({ unit: fc.constantFrom(..."ab /-.[]:".split("")), minLength: 1, maxLength: 4 }),
          ),
          { minLength: 1, maxLength: 3 },
        ),
      )
      .map(([quoted, parts]) => (quoted ? `"${parts.join("")}"` : parts.join(""))),
  },
);
const blank = fc.string({ unit: fc.constantFrom(" ", "\t"), minLength: 1, maxLength: 2 });
const maybeBlank = fc.constantFrom("", " ", "\t", "  ");
/** One command: words, then now and then a redirection or two (plain ones and ones left to the parser). */
const redirect = fc.tuple(
  fc.constantFrom(
    ">",
    ">>",
    "<",
    "2>",
    "1>",
    "2>>",
    "2>&1",
    ">&2",
    "&>",
    ">|",
    "<<",
    "2>&-",
    "12>",
    "0<",
    "3<",
    ">& 1",
  ),
  maybeBlank,
  fc.oneof(word, fc.constant("/dev/null"), fc.constant("")),
);
const command = fc
  .tuple(
    fc.array(fc.tuple(word, blank), { minLength: 1, maxLength: 4 }),
    fc.array(fc.tuple(redirect, blank), { maxLength: 2 }),
  )
  .map(
    ([parts, reds]) =>
      parts.map(([w, b]) => w + b).join("") +
      reds
        .map(
          ([[op, gap, dest], b]) => (op.includes("&") && !op.startsWith("&") ? op : `${op}${gap}${dest}`) + b,
        )
        .join(""),
  );
/** Lines of the shapes the simple path takes: plain commands, the four operators, plain redirections. */
const cleanCommand = fc
  .tuple(
    fc
      .tuple(fc.tuple(fc.oneof(...cleanPlain), blank), fc.array(fc.tuple(cleanWord, blank), { maxLength: 2 }))
      .map(([head, rest]) => [head, ...rest]),
    fc.array(
      fc.tuple(
        fc.constantFrom("> f", ">>log", "< in.txt", "2> e", "2>&1", ">&2", "> /dev/null", "0<f", "3>f"),
        blank,
      ),
      { maxLength: 2 },
    ),
  )
  .map(([parts, reds]) => parts.map(([w, b]) => w + b).join("") + reds.map(([r, b]) => r + b).join(""));
const cleanLine = fc
  .tuple(
    cleanCommand,
    fc.array(fc.tuple(fc.constantFrom("&&", "||", "|", ";"), maybeBlank, cleanCommand), { maxLength: 3 }),
    fc.constantFrom("", " ", ";"),
  )
  .map(([head, rest, tail]) => {
    // with no blank after an operator, none before it either, now and then (`a&&b`)
    const joined = rest.map(([op, gap, c]) => (gap === "" ? `\u0000${op}${c}` : `${op}${gap}${c}`)).join("");
    return `${head}${joined}`.replace(/[ \t]*\u0000/g, "").trimEnd() + tail;
  });
/** Commands joined by the operators the simple path takes, and some it leaves to the parser. */
const wildLine = fc
  .tuple(
    command,
    fc.array(
      fc.tuple(fc.constantFrom("&&", "||", "|", ";", "&&", "|", "&", "|&", ";;", "\n"), maybeBlank, command),
      { maxLength: 3 },
    ),
    maybeBlank,
    fc.constantFrom("", "", ";", " ;", "&"),
  )
  .map(([head, rest, lead, tail]) => {
    const body = head + rest.map(([op, gap, c]) => `${op}${gap}${c}`).join("");
    return `${lead}${body.replace(/[ \t]+$/, "")}${tail}${lead}`;
  });
const line = fc.oneof({ weight: 3, arbitrary: cleanLine }, { weight: 2, arbitrary: wildLine });

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
    // the property is about something: about a quarter of the generated lines are simple (1,181
    // to 1,255 in six runs, ~100 of them with a variable and more with a quote; 60,000 lines in
    // one run passed), so the line sits below a random run's count
    expect(made).toBeGreaterThan(1000);
  });

  it("takes the everyday first commands and leaves the rest to the parser", () => {
    for (const s of [
      "true",
      "ls -la src",
      "npm test",
      "git status",
      " git  log\t--oneline ",
      "cd app && npm run build",
      "npm test 2>&1 | tail -20",
      "ls -la | head -5; git status",
      "make > build.log 2>&1 || cat build.log",
      'git commit -m "fix the parser"',
      "grep -rn 'TODO' src",
      "echo '$HOME is literal here' > out.txt",
      "echo 'x'",
      'echo "$HOME" > /dev/null',
      'cd "${REPO}/src" && ls $DIR',
      "echo $HOME",
    ])
      expect(simpleShell(s), s).toBeDefined();
    for (const s of [
      "",
      "  ",
      "a=b cmd",
      "ls *.ts",
      "cat ~/.x",
      "a & b",
      "a |& b",
      "a > f b",
      "a 2>&-",
      'echo "$(pwd)"',
      "echo $1",
      'echo "$HOME "',
      "echo $HOME/x",
      'echo a"b"',
      'echo "a\\b"',
      "echo 'open",
      '"ls" -l',
      'cat > "f"',
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
      "cd app && npm run build",
      "npm test 2>&1 | tail -20",
      "make > build.log 2>&1 || cat build.log",
      "ls | wc -l; git status",
      "rm -rf dist && bash -c true",
      "cat < in.txt > /tmp/out.txt",
      "echo a >> /etc/passwd",
    ]) {
      const fast = await analyseCommand(command, "/home/u", { exported: new Set(["PATH"]) });
      const { classifyShell } = await import("../../../src/tools/bash/subset.js");
      // sh is dash or bash here: either way its script is read in the POSIX dialect
      const real = classifyShell(parse(command), {
        home: "/home/u",
        parse,
        exported: new Set(["PATH"]),
        shellOf: () => "dash",
      });
      expect(fast, command).toEqual(real);
    }
  });
});
