import fc from "fast-check";

// Shell tokens in any order, glued with or without a blank: lines no grammar would write, where
// the tree-sitter grammar and bash are likeliest to read the same characters differently. Two
// such readings were found by this draw (2026-12-05) that the grammar-shaped lines of
// bash-grammar.ts never made: `\ ls` (the grammar skipped the escaped blank; bash ran ` ls`) and
// `-9>a` (a descriptor to the grammar; a command named `-9` to bash). A third, `{PATH}>f` (bash's
// named descriptor, which sets PATH), came from reading bash's manual; `{x}` is drawn since.
const token = fc.constantFrom(
  ..."echo cat ls true x a file.txt src dash/ grep head wc find sed git status p".split(" "),
  ..."-9 -1 9 2 0 - -- -n -e".split(" "),
  ..."> >> < <> >& &> >| <<< 2> 1> 0< 9> 1<> 2>&1 &>> << |& ;; & ; && || | ( ) { }".split(" "),
  "'q'",
  '"d"',
  '"',
  "'",
  "\\",
  "\\ ",
  "\\\t",
  "\t",
  "=",
  "a=1",
  "x=",
  "$",
  "$a",
  "${a}",
  "$'x'",
  "$(",
  "<(",
  ">(",
  "{a,b}",
  "{x}",
  "{PATH}",
  ..."! # * ? [ ] ~ , . / : % ^ + @".split(" "),
);
const glue = fc.constantFrom(" ", "", "", " ");

/** One line of 1 to 7 shell tokens. */
export function tokenSoup(): fc.Arbitrary<string> {
  return fc.array(fc.tuple(token, glue), { minLength: 1, maxLength: 7 }).map((xs) =>
    xs
      .map(([t, g]) => t + g)
      .join("")
      .trim(),
  );
}
