import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

// The fixture the strace differential runs every line in, built once per folder and copied for
// each line: the files the grammar's lines name, and what issue 41's attack classes reach for.
// Beside the workspace `w/` lie `outside/` (a secret the workspace must not read) and `bin/`
// (programs on PATH that leave a marker when something runs them: gzip for `rg -z`, the drivers a
// planted git configuration names).

export const SECRET = "SECRET-OUTSIDE-41";
export const ENV_SECRET = "SECRET-DOTENV-41";
/** Programs planted on PATH: each leaves `ran-NAME` beside the workspace when it runs. */
export const PLANTED = ["gzip", "get", "show-text", "fsmon", "hooked"];
/** ripgrep as the package ships it: the system may have none. */
export const RG_DIR = path.dirname(
  createRequire(import.meta.url)("@vscode/ripgrep").rgPath.replace("app.asar", "app.asar.unpacked"),
);

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} in ${cwd}: ${r.stderr}`);
}

function repo(dir: string, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), text);
  }
  // no template: the sample hooks would be copied for every line
  git(dir, "init", "-q", "--template=");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "one");
}

/** Builds `root/template` (the workspace), `root/outside` and `root/bin` once. */
function buildTemplate(root: string): void {
  const t = path.join(root, "template");
  const marker = (name: string) => path.join(root, `ran-${name}`);
  mkdirSync(path.join(root, "outside", "dir"), { recursive: true });
  writeFileSync(path.join(root, "outside", "secret.txt"), `${SECRET}\n`);
  writeFileSync(path.join(root, "outside", "dir", "x"), `${SECRET}\n`);
  mkdirSync(path.join(root, "bin"), { recursive: true });
  for (const p of PLANTED)
    writeFileSync(path.join(root, "bin", p), `#!/bin/sh\ntouch ${marker(p)}\ncat\n`, { mode: 0o755 });
  // the workspace: a plain repository with the grammar's files
  const files: Record<string, string> = {};
  for (const f of [
    "file.txt",
    "other.txt",
    "src/a.ts",
    "src/b.ts",
    "src/sub/c.ts",
    "dash/a",
    "dash/--pre=touch",
  ])
    files[f] = "alpha\nbeta\n";
  repo(t, files);
  writeFileSync(path.join(t, ".env"), `TOKEN=${ENV_SECRET}\n`);
  writeFileSync(path.join(t, "a.gz"), "not gzip");
  mkdirSync(path.join(t, "a", "b", "c"), { recursive: true });
  writeFileSync(path.join(t, "a", "b", "c", "deep.txt"), "deep\n");
  symlinkSync("a/b/c", path.join(t, "lnk")); // `cd lnk/..` is logical to bash
  symlinkSync("src", path.join(t, "in")); // a symlink inside the workspace
  symlinkSync(path.join(root, "outside"), path.join(t, "src", "out")); // one out of it
  symlinkSync(path.join(root, "outside", "secret.txt"), path.join(t, "{a,b}")); // dash reads braces as text
  symlinkSync(path.join(root, "outside", "secret.txt"), path.join(t, "\\u00E9")); // bash's C-locale $'\u00e9'
  // repositories a line may run git in: one plain, the others each planting what git would run
  // (kept apart, copied in only for a line that names them: the disk is slow to copy them)
  const repos = path.join(root, "repos-template");
  repo(path.join(repos, "plain"), { "f.txt": "one\n" });
  repo(path.join(repos, "fsmon"), { "f.txt": "one\n" });
  writeFileSync(path.join(repos, "fsmon", ".git", "config"), "[core] fsmonitor = fsmon\n", { flag: "a" });
  repo(path.join(repos, "hook"), { "f.txt": "one\n" });
  mkdirSync(path.join(repos, "hook", ".git", "hooks"));
  writeFileSync(path.join(repos, "hook", ".git", "hooks", "post-index-change"), "#!/bin/sh\nhooked\n");
  chmodSync(path.join(repos, "hook", ".git", "hooks", "post-index-change"), 0o755);
  repo(path.join(repos, "work"), { "f.txt": "one\n" });
  writeFileSync(path.join(repos, "work", "f.txt"), "two\n");
  git(path.join(repos, "work"), "commit", "-qam", "two");
  git(repos, "clone", "-q", "--bare", "--template=", "work", "bare.git");
  mkdirSync(path.join(repos, "bare.git", "info"), { recursive: true });
  writeFileSync(path.join(repos, "bare.git", "config"), '[diff "x"]\n\ttextconv = show-text\n', {
    flag: "a",
  });
  writeFileSync(path.join(repos, "bare.git", "info", "attributes"), "* diff=x\n");
  repo(path.join(repos, "outer", "inner"), { "x.txt": "x\n" });
  repo(path.join(repos, "outer"), { "y.txt": "y\n" });
  writeFileSync(path.join(repos, "outer", "inner", ".git", "config"), "[core]\n\tfsmonitor = fsmon\n", {
    flag: "a",
  });
  writeFileSync(path.join(root, "template.done"), "");
}

/** What each fixture copy looked like when made: a line that changed nothing leaves it for the next. */
const copies = new Map<string, { print: string; repos: boolean }>();

/** Every entry below `dir` with its kind, mode, size, change time and link target: what a line's writes change. */
function fingerprint(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const n of names) {
      const p = path.join(d, n);
      const st = lstatSync(p, { throwIfNoEntry: false });
      if (st === undefined) continue;
      out.push(`${p}\0${st.mode}\0${st.size}\0${st.mtimeMs}\0${st.ctimeMs}\0${st.ino}`);
      if (st.isSymbolicLink()) out.push(readlinkSync(p));
      else if (st.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out.join("\n");
}

/**
 * A fresh copy of the fixture at `dir` (its folder holds the template, `outside` and `bin`);
 * `repos/` for a line that names it. A copy no line has changed since is kept (most lines only
 * read): copying it for every line was most of the differential's time on this disk.
 */
export function makeFixture(dir: string, withRepos = false): void {
  const root = path.dirname(dir);
  if (!existsSync(path.join(root, "template.done"))) buildTemplate(root);
  for (const f of readdirSync(root)) if (f.startsWith("ran-")) rmSync(path.join(root, f), { force: true });
  const last = copies.get(dir);
  if (last !== undefined && last.repos === withRepos && fingerprint(dir) === last.print) return;
  // cp -a and rm -rf: node's recursive copy took ten times as long for the fixture's ~250 entries
  const script = withRepos
    ? 'rm -rf "$1" && cp -a "$2" "$1" && cp -a "$3" "$1/repos"'
    : 'rm -rf "$1" && cp -a "$2" "$1"';
  const fresh = spawnSync("sh", [
    "-c",
    script,
    "sh",
    dir,
    path.join(root, "template"),
    path.join(root, "repos-template"),
  ]);
  if (fresh.status !== 0) throw new Error(`the fixture could not be copied: ${fresh.stderr}`);
  copies.set(dir, { print: fingerprint(dir), repos: withRepos });
}

/** The planted programs that ran since the fixture was made. */
export function plantedRan(dir: string): string[] {
  const root = path.dirname(dir);
  return readdirSync(root)
    .filter((f) => f.startsWith("ran-"))
    .map((f) => f.slice(4));
}
