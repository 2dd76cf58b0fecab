// Which repository folders outside a root the sandbox shows: a real worktree's and a real
// submodule's (made by git), and nothing that a planted `.git` file names.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gitDirsOutside } from "../../../src/tools/sandbox/git-dirs.js";
import { tempDir, writeTree } from "../../helpers/tmp.js";

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync("git", ["-c", "protocol.file.allow=always", ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

function repo(): string {
  const dir = tempDir("tp-gitdirs-");
  git(dir, "init", "-q", "-b", "main");
  writeTree(dir, { "a.txt": "a" });
  git(dir, "add", "a.txt");
  git(dir, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a");
  return dir;
}

describe("gitDirsOutside", () => {
  it("shows a worktree's folder and its main repository", () => {
    const main = repo();
    const wt = path.join(tempDir("tp-gitdirs-wt-"), "wt");
    git(main, "worktree", "add", "-q", wt);
    expect(gitDirsOutside(wt)).toEqual([path.join(main, ".git/worktrees/wt"), path.join(main, ".git")]);
  });

  it("shows a submodule's folder in its superproject", () => {
    const sub = repo();
    const sup = repo();
    git(sup, "submodule", "add", "-q", sub, "inner");
    const inner = path.join(sup, "inner");
    expect(gitDirsOutside(inner)).toEqual([path.join(sup, ".git/modules/inner")]);
  });

  it("shows nothing that a planted .git file names: the disk, the home folder, another repository", () => {
    const other = repo();
    for (const named of ["/", path.dirname(other), path.join(other, ".git")]) {
      const root = writeTree(tempDir("tp-gitdirs-planted-"), { ".git": `gitdir: ${named}\n` });
      expect(gitDirsOutside(root), named).toEqual([]);
    }
    // a planted commondir beside a folder with no link back names nothing either
    const fake = writeTree(tempDir("tp-gitdirs-fake-"), { commondir: "/\n", gitdir: "/x/.git\n" });
    const root = writeTree(tempDir("tp-gitdirs-planted-"), { ".git": `gitdir: ${fake}\n` });
    expect(gitDirsOutside(root)).toEqual([]);
  });
});
