import fc from "fast-check";

// A generator over the bash grammar: the subset the classifier models, and the constructs the
// issue's attack classes use, mixed, so the differential test meets both.

const files = [
  "file.txt",
  "other.txt",
  "src",
  "src/a.ts",
  "src/*.ts",
  "dash/*",
  "out.txt",
  "new/x",
  "'a b'",
  '"src/b.ts"',
  "~/x",
  "../up.txt",
  "src/sub/../a.ts",
];
const word = fc.oneof(
  fc.constantFrom(...files),
  fc.constantFrom(
    "-n",
    "-l",
    "-r",
    "-f",
    "-rf",
    "x",
    "alpha",
    "$x",
    "${x}",
    '"$x"',
    "$HOME",
    "$(echo src)",
    "$((1))",
    "${x@P}",
    "$'\\x72m'",
    "{a,b}",
  ),
);

const simple = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        "ls",
        "cat",
        "head -n 1",
        "tail -n 1",
        "wc -l",
        "grep -n alpha",
        "grep -rn alpha",
        "rg alpha",
        "rg --files",
        "sed -n 1p",
        "sed 's/a/b/'",
        "sort",
        "uniq",
        "stat",
        "du -s",
        "find",
        "echo",
        "printf '%s\\n'",
        "true",
        "false",
        "pwd",
        "basename",
        "nl",
      ),
      fc.array(word, { maxLength: 2 }),
    )
    .map(([c, a]) => [c, ...a].join(" ")),
  fc
    .tuple(
      fc.constantFrom(
        "touch",
        "rm -f",
        "rm -rf",
        "mkdir -p",
        "cp file.txt",
        "mv other.txt",
        "ln -s file.txt",
        "tee",
        "sed -i 's/a/b/'",
        "sort -o out.txt",
        "chmod 644",
      ),
      fc.array(word, { minLength: 1, maxLength: 2 }),
    )
    .map(([c, a]) => [c, ...a].join(" ")),
  fc.constantFrom(
    "x=src; ls $x",
    "x=1; echo $x",
    "cd src && ls",
    "cd src; touch y",
    "cd nowhere; touch y",
    "env ls",
    "timeout 5 cat file.txt",
    "nice -n 1 ls",
    "ls | xargs echo",
    "find . -name '*.ts' -exec cat {} \\;",
    "find . -name '*.ts' -delete",
    "f(){ touch p; }; f",
    "false && rm(){ :; }; rm -f file.txt",
    "let x=1",
    "(( x = 1 ))",
    "echo $((1+1))",
    "exec 3>out.txt; echo x >&3",
    "cat file.txt 3<file.txt >/dev/fd/3",
    "echo x > /dev/stderr",
    "x='$(touch p)'; echo ${x@P}",
    "command touch p",
    "builtin echo x",
    "hash -p /bin/touch cat; cat p",
    "XDG_CONFIG_HOME=x ls",
    "LANG=C ls",
    "cat <<'EOF' > out.txt\nhi $x\nEOF",
    "cat <<EOF\n$(touch p)\nEOF",
    "if [ -f file.txt ]; then cat file.txt; else touch p; fi",
    "for f in *; do cat $f; done",
    "ln -s /tmp l && echo x > l/y",
    "mkdir -p d && echo x > d/y",
    "bash -c 'touch p'",
    "sh -c 'ls'",
    "echo x >> out.txt",
    "echo x &> out.txt",
    "> out.txt",
    "cat < file.txt",
    'echo "$(< file.txt)"',
    "rg --pre touch alpha",
    "git status",
    "sed 'w out.txt' file.txt",
    "sed -n '1e touch p' file.txt",
    "git log --output=out.txt",
    "rg --hostname-bin=touch alpha",
    "PAGER=touch git log",
    "printf -v PATH .; ls",
    "declare -n p=PATH; p=.; ls",
    "read x < file.txt",
    "echo x > '/dev/fd/1'",
    'cat <<E"OF"\nx\nEOF',
    "ls # a\rtouch p",
    "r\\\nm -f file.txt",
    "$'\\x74ouch' p",
    "echo ${x:-$(touch p)}",
    "[[ -v a[$(touch p)] ]]",
    "x=src; cd $x && touch y",
    "cd src; cd sub && touch z",
    "mkdir -p n && cd n && touch m",
    "touch -- -n",
    "xargs -a file.txt echo",
    "env -i ls",
    "timeout -s KILL 5 touch q",
  ),
);

const joiner = fc.constantFrom("; ", " && ", " || ", " | ", "\n", " & ", " |& ");

/** One command line: one to three pieces, sometimes in a subshell or a group. */
export function bashLine(): fc.Arbitrary<string> {
  return fc
    .tuple(
      simple,
      fc.array(fc.tuple(joiner, simple), { maxLength: 2 }),
      fc.constantFrom("", "(", "{ "),
      fc.constantFrom("", " > out.txt", " 2>&1", " < file.txt"),
    )
    .map(([first, rest, wrap, redirect]) => {
      const body = first + rest.map(([j, s]) => j + s).join("");
      if (wrap === "(") return `(${body})${redirect}`;
      if (wrap === "{ ") return `{ ${body}; }${redirect}`;
      return body + redirect;
    });
}
