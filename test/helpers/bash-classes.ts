import fc from "fast-check";

// Lines for issue 41's attack classes, over the fixture of differential-fixture.ts (its `lnk`
// symlink, `src/out` leading outside, `.env`, the repositories under `repos/`, the programs
// planted on PATH). Each class mixes the forms that reach too far with the ones that must keep
// running, so the differential meets both.

const readers = fc.constantFrom("cat", "head -n 1", "wc -l", "ls", "ls -la");

/** `..` and symlinks, bash's logical cd, /proc/self and /dev/fd. */
export const pathLines = fc.oneof(
  fc
    .tuple(
      fc.constantFrom("lnk", "lnk/..", "lnk/../..", "lnk/../../..", "..", "src", "in", "in/..", "a/b", "/"),
      readers,
      fc.constantFrom(
        "file.txt",
        "../file.txt",
        "../../outside/secret.txt",
        "deep.txt",
        "src/a.ts",
        "w/file.txt",
        ".env",
      ),
    )
    .map(([d, r, f]) => `cd ${d} && ${r} ${f}`),
  fc
    .tuple(
      readers,
      fc.constantFrom(
        "/proc/self/cwd/file.txt",
        "/proc/self/cwd/../outside/secret.txt",
        "/proc/self/root/etc/hostname",
        "/tmp/../etc/hostname",
        "src/out/secret.txt",
        "src/../file.txt",
        "lnk/../file.txt",
        "lnk/../../file.txt",
        "in/a.ts",
        "/dev/stdin",
      ),
    )
    .map(([r, f]) => `${r} ${f}`),
  fc.constantFrom(
    "cd lnk/.. && pwd",
    "cd lnk && cd .. && cat file.txt",
    "cd -P lnk/.. && ls",
    "cat $PWD/file.txt",
  ),
);

/** Brace and glob expansion as bash does it. */
export const globLines = fc
  .tuple(
    fc.constantFrom("cat", "ls", "wc -l", "head -n 1", "ls -d"),
    fc.constantFrom(
      ".en{v..v}",
      ".en[!x]",
      ".e?v",
      ".*",
      "*",
      "[!.]*",
      "src/*.ts",
      "{file,other}.txt",
      "{a..c}",
      ".en{v,x}",
      "*.gz",
      "dash/*",
      "?env",
      "src/[ab].ts",
      "*/",
      "*/c.ts",
      "src/{a,b}.ts",
      "{1..3}",
      "~",
    ),
  )
  .map(([c, g]) => `${c} ${g}`);

/** `sh -c` as dash reads it, and bash's `$'...'` under the shell's locale. */
export const shellLines = fc.constantFrom(
  "sh -c 'cat {a,b}'",
  "sh -c 'cat file.txt'",
  "sh -c 'ls .*'",
  "sh -c \"cat \\$'x'\"",
  "dash -c 'ls'",
  "bash -c 'cat .en{v..v}'",
  "bash -c 'cat file.txt'",
  "sh -c 'cd lnk/.. && ls'",
  "cat $'\\u00e9'",
  "cat $'file.txt'",
  "LC_ALL=C cat $'\\u00e9'",
  "sh -c 'echo x &>/dev/null'",
);

/** Options parsed as each program parses them: clusters, abbreviations, `--opt=value`, walks that follow links. */
export const optionLines = fc.constantFrom(
  "rg -iz alpha",
  "rg -zi alpha",
  "rg -i alpha",
  "rg -g .env TOKEN",
  "rg --iglob=.env TOKEN",
  "rg -t sh alpha",
  "rg -L alpha",
  "rg -uu TOKEN",
  "rg --files",
  "rg --hidden alpha src",
  "ls -RL src",
  "ls -R src",
  "find -L src",
  "find src -follow",
  "find src -name '*.ts'",
  "diff -r src in",
  "diff -r --no-dereference src in",
  "du -L src",
  "du -a src",
  "tree -l src",
  "grep -rn alpha src",
  "grep -Rn alpha src",
  "grep -rn TOKEN .",
  "head -qn1 file.txt",
  "wc -lc file.txt",
  "sort -ru file.txt",
  "cp .env x.txt",
  "cp file.txt x.txt",
  "mv other.txt y.txt",
);

/** git in repositories that plant what it would run, and git's own reads. */
export const gitLines = fc.oneof(
  fc
    .tuple(
      fc.constantFrom("plain", "fsmon", "hook", "bare.git", "outer"),
      fc.constantFrom(
        "status --short",
        "log -p",
        "diff",
        "show --stat",
        "log --oneline",
        "grep one",
        "ls-files",
      ),
      fc.boolean(),
    )
    .map(([repo, sub, cd]) => (cd ? `cd repos/${repo} && git ${sub}` : `git -C repos/${repo} ${sub}`)),
  fc.constantFrom(
    "git status",
    "git diff",
    "git show :file.txt",
    "git show HEAD:file.txt",
    "git show :.env",
    "git grep --untracked TOKEN",
    "git grep alpha",
    "git blame --contents ../outside/secret.txt file.txt",
    "git blame --cont=.env file.txt",
    "git config --local --list",
    "git config --list",
    "git config core.fsmonitor get",
    "git log -p -- file.txt",
    "touch file.txt && git status",
  ),
);
