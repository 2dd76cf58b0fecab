import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync, rmSync } from "node:fs";
import path from "node:path";
import picomatch from "picomatch";
import { CODING_ACTION_DEFAULTS } from "../../src/assemble/policy.js";
import { CONFIG_KEYS } from "../../src/config/keys.js";
import { pathGlob } from "../../src/permissions/glob.js";
import {
  buildPermissionRequests,
  evaluatePermission,
  type PermissionPolicy,
} from "../../src/permissions/index.js";
import { analyseCommand } from "../../src/tools/bash/analyse.js";
import { isModelled } from "../../src/tools/bash/commands/index.js";
import { shellEnvironment } from "../../src/tools/bash/environment.js";
import { missingAncestors } from "../../src/tools/bash/needs.js";
import { bashTool } from "../../src/tools/bash/tool.js";
import { makeFixture, plantedRan, RG_DIR } from "./differential-fixture.js";
import { runKilledAt } from "./run-killed.js";

/**
 * The differential check of the bash classifier against real bash: a command line the classifier
 * does not ask about is run by bash under `strace -f` (inside bubblewrap, so a classifier bug
 * cannot reach this machine's files), and every program bash itself starts and every file the
 * shell or a modelled command opens (for reading or writing, resolved by the kernel) must be one
 * the classifier predicted. A line the whole check lets run with no rule at all (the read-only
 * set) must also leave the planted secret outside the workspace and the ask-first files inside
 * it unopened, and the planted programs unrun.
 */
export const STRACE = "/usr/bin/strace";
export const BWRAP = "/usr/bin/bwrap";
export function differentialMissing(): string | undefined {
  if (!existsSync(STRACE)) return "needs strace: apt-get install strace";
  if (!existsSync(BWRAP)) return "needs bubblewrap: apt-get install bubblewrap";
  const probe = spawnSync(BWRAP, [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    STRACE,
    "-f",
    "-o",
    "/dev/null",
    "true",
  ]);
  if (probe.status !== 0)
    return `strace cannot run inside bubblewrap here: ${String(probe.stderr).trim().slice(0, 200)}`;
  return undefined;
}

export interface Finding {
  command: string;
  problem: string;
}

const WRAPPERS = ["env", "timeout", "nice", "nohup", "xargs", "stdbuf", "setsid"];

const WRITE_FLAGS = /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/;

/** Programs whose every exec and write the classifier models; any other program is foreign. */
const CHECKED = (program: string) =>
  program === "bash" ||
  program === "sh" ||
  ["env", "timeout", "nice", "nohup", "xargs", "stdbuf", "setsid", "git", "find"].includes(program) ||
  (isModelled(program) &&
    ![
      "npm",
      "pnpm",
      "yarn",
      "bun",
      "pip",
      "pip3",
      "python",
      "python3",
      "uv",
      "cargo",
      "go",
      "apt-get",
      "apt",
      "dnf",
      "yum",
      "apk",
      "brew",
      "pacman",
      "gem",
      "perl",
      "sudo",
      "doas",
      "make",
      "curl",
      "wget",
      "rsync",
      "tar",
      "unzip",
      "zip",
      "patch",
    ].includes(program));

/** Runs one line; returns what bash did that the classifier did not predict (nothing runs when it asked). */
export async function checkLine(
  command: string,
  dir: string,
  /** Decide `unasked` for every line (for a count), not only where a line with git or an exposure needs it. */
  opts: { decide?: boolean; timeoutMs?: number } = {},
): Promise<{ ran: boolean; unasked: boolean; findings: Finding[] }> {
  makeFixture(dir, command.includes("repos"));
  const home = "/nonexistent-home";
  const analysis = await analyseCommand(command, home, {
    cwd: dir,
    exported: new Set(Object.keys(process.env)),
  });
  if (analysis.asks.length > 0) return { ran: false, unasked: false, findings: [] };
  const hasGit = analysis.commands.some((c) => c.git !== undefined);
  // decided when it matters (the whole check is the slower part of a line)
  let unasked = opts.decide || hasGit ? await runsUnasked(command, dir) : undefined;
  // git's own reading is decided by the repository (git-repos.ts), which only the whole check
  // inspects: a git line runs here when that check lets it run unasked
  if (hasGit && !unasked) return { ran: false, unasked: false, findings: [] };
  // mkdir -p makes the folders above its operand that are missing now: the classifier's needs list them
  const made: string[] = [];
  for (const w of analysis.writes.filter((x) => x.ancestors)) made.push(...missingAncestors(w.path, dir));
  const log = path.join(path.dirname(dir), `${path.basename(dir)}.strace`);
  const env = {
    ...shellEnvironment(process.env),
    HOME: home,
    PAGER: "cat",
    GIT_PAGER: "cat",
    // the planted programs first, as a hostile PATH entry would be; ripgrep as the package ships it
    PATH: `${path.join(path.dirname(dir), "bin")}:${RG_DIR}:${process.env.PATH ?? ""}`,
  };
  await runKilledAt(
    BWRAP,
    [
      "--ro-bind",
      "/",
      "/",
      "--bind",
      path.dirname(dir),
      path.dirname(dir),
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--tmpfs",
      "/tmp",
      "--bind",
      path.dirname(dir),
      path.dirname(dir),
      "--unshare-net",
      // its own PID namespace: when bwrap goes (the timeout below kills it), the kernel kills every
      // process of the line with it. Without it, strace's tracees outlived the run (a generated
      // `tail -f` writing into its own file, a `dd` to a deleted file) and filled the disk
      "--unshare-pid",
      "--die-with-parent",
      "--chdir",
      dir,
      STRACE,
      "-f",
      "-qq",
      "-y",
      "-s",
      "4096",
      "-o",
      log,
      "-e",
      "trace=execve,open,openat,creat,unlink,unlinkat,rename,renameat,renameat2,mkdir,mkdirat,rmdir,symlink,symlinkat,link,linkat,truncate,chdir,fchdir,clone,clone3,fork,vfork",
      "/bin/bash",
      "-c",
      command,
    ],
    env,
    opts.timeoutMs ?? 10_000,
  );
  const trace = existsSync(log) ? readFileSync(log, "utf8") : "";
  rmSync(log, { force: true });
  const { findings, exposures } = compare(command, analysis, trace, dir, home, made);
  const planted = plantedRan(dir).map((p) => ({ command, problem: `the planted program ${p} ran` }));
  // unasked, nothing the check let through may have opened a secret or started a planted program
  if (exposures.length + planted.length > 0) unasked ??= await runsUnasked(command, dir);
  if (unasked) findings.push(...exposures, ...planted);
  return { ran: true, unasked: unasked === true, findings };
}

const ASK_FILES = CONFIG_KEYS["permissions.askFiles"].default as string[];

/** Whether the whole check (bashNeeds under no rule at all: commands and writes ask) lets the line run with no ask. */
async function runsUnasked(command: string, dir: string): Promise<boolean> {
  const config = { "tools.sandbox": "off", "permissions.askFiles": ASK_FILES };
  const requests = await buildPermissionRequests(
    bashTool(),
    "builtin",
    { command },
    { cwd: dir, workspace: dir, extraRoots: [], config },
  );
  const policy: PermissionPolicy = {
    rules: [],
    defaultEffect: "allow",
    workspaceBoundary: true,
    askFiles: ASK_FILES,
    caseInsensitive: false,
    actionDefaults: CODING_ACTION_DEFAULTS,
  };
  return requests.every((r) => evaluatePermission(r, policy).effect === "allow");
}

type Analysis = Awaited<ReturnType<typeof analyseCommand>>;

function compare(
  command: string,
  analysis: Analysis,
  trace: string,
  dir: string,
  home: string,
  made: readonly string[],
): { findings: Finding[]; exposures: Finding[] } {
  const findings: Finding[] = [];
  const exposures: Finding[] = [];
  const reach = predictedReach(analysis, dir, home, made);
  const askFile = (f: string) => ASK_FILES.some((g) => pathGlob(g, true)(path.basename(f)));
  const root = path.dirname(dir);
  const outside = path.join(root, "outside");
  const predictedPrograms = new Set(
    analysis.commands.map((c) => path.posix.basename(c.patterns[0]!.split(" ")[0]!)),
  );
  // wrappers pass their command through (the classifier checks the inner one): on the line, they are expected
  for (const w of WRAPPERS) if (command.split(/[\s;&|()]+/).includes(w)) predictedPrograms.add(w);
  const absolute = (p: string, cwd: string) => path.resolve(cwd, p.replace(/^~(?=\/|$)/, home));
  const writes = [
    ...analysis.writes.map((w) => ({ ...w, abs: absolute(w.path, dir) })),
    ...made.map((abs) => ({ path: abs, abs, subtree: false, glob: false, via: "mkdir" })),
  ];
  const covered = (file: string) =>
    file === "/dev/null" ||
    file.startsWith("/dev/pts/") ||
    file === "/dev/tty" ||
    writes.some(
      (w) =>
        file === w.abs ||
        (w.subtree && file.startsWith(`${w.abs}/`)) ||
        (w.glob && picomatch(w.abs, { dot: false })(file)),
    );
  // a process is ours (checked) until it runs a program the classifier does not model: that
  // program was allowed by a rule as a whole, and what it does inside is the sandbox's to hold
  const state = new Map<string, { program: string; foreign: boolean }>();
  const temps = new Map<string, Finding>();
  const cwd = new Map<string, string>();
  // with -f a call can be cut in two: `7 execve("/bin/x", ... <unfinished ...>` then `7 <... execve resumed>) = 0`
  const pending = new Map<string, string>();
  const lines: string[] = [];
  for (const raw of trace.split("\n")) {
    const cut = /^(\d+)\s+(.*) <unfinished \.\.\.>$/.exec(raw);
    if (cut) {
      pending.set(cut[1]!, cut[2]!);
      continue;
    }
    const resumed = /^(\d+)\s+<\.\.\. \w+ resumed>(.*)$/.exec(raw);
    lines.push(resumed ? `${resumed[1]} ${pending.get(resumed[1]!) ?? ""}${resumed[2]}` : raw);
  }
  // a child's first calls can be logged before its parent's clone returns: know every parent first
  const parentOf = new Map<string, string>();
  for (const line of lines) {
    const c = /^(\d+)\s+(?:clone3?|v?fork)\(.*\)\s+=\s+(\d+)/.exec(line);
    if (c) parentOf.set(c[2]!, c[1]!);
  }
  for (const line of lines) {
    const m = /^(\d+)\s+(\w+)\((.*)\)\s+=\s+(-?\d+(?:<.*>)?|\?)/.exec(line);
    if (!m) continue;
    const [, pid, call, argsText, result] = m as unknown as [string, string, string, string, string];
    const ok = result !== "?" && !result.startsWith("-");
    const resultFd = result.replace(/<.*$/, "");
    if (!state.has(pid) && parentOf.has(pid)) {
      const parent = parentOf.get(pid)!;
      state.set(pid, { ...(state.get(parent) ?? { program: "bash", foreign: false }) });
      cwd.set(pid, cwd.get(parent) ?? dir);
    }
    const here = cwd.get(pid) ?? dir;
    const me = state.get(pid) ?? { program: "bash", foreign: false };
    const str = [...argsText.replace(/^\d+<[^>]*>/, "").matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((x) =>
      x[1]!.replace(/\\"/g, '"'),
    );
    if ((call === "clone" || call === "clone3" || call === "fork" || call === "vfork") && ok) {
      if (!state.has(resultFd)) {
        cwd.set(resultFd, here);
        state.set(resultFd, { ...me });
      }
      continue;
    }
    if (!ok) continue;
    if (call === "fchdir") {
      // `fchdir(3</w/new>)`: the folder that descriptor has open
      const fd = /^\d+<([^>]*)>/.exec(argsText);
      if (fd) cwd.set(pid, fd[1]!);
      continue;
    }
    if (call === "chdir") {
      cwd.set(pid, absolute(str[0] ?? ".", here));
      continue;
    }
    if (call === "execve") {
      const program = path.posix.basename(str[0] ?? "");
      if (!me.foreign && program !== "bash" && !predictedPrograms.has(program))
        findings.push({
          command,
          problem: `${me.program} ran ${program}, which the classifier did not predict`,
        });
      state.set(pid, { program, foreign: me.foreign || !CHECKED(program) });
      continue;
    }
    if (me.foreign) continue;
    // arguments split at commas: enough for these calls (a path holding ", " is not in the fixture)
    const tokens = argsText.split(/,\s*/);
    const at = (i: number) => /^\d+<([^>]*)>$/.exec(tokens[i - 1] ?? "")?.[1] ?? here;
    const pathAt = (i: number) =>
      absolute(JSON.parse(tokens[i]!.replace(/\\(?!")/g, "\\\\")) as string, at(i));
    const quoted = tokens.map((t, i) => (/^".*"$/.test(t) ? i : -1)).filter((i) => i >= 0);
    if (quoted.length === 0) continue;
    let file: string;
    if (call === "open" || call === "openat") {
      const opened = pathAt(quoted[0]!);
      // `= 3</real/path>`: the file the kernel opened, symlinks and `..` resolved
      const real = /^\d+<(.*)>$/.exec(result)?.[1] ?? opened;
      const writes = WRITE_FLAGS.test(tokens.slice(quoted[0]! + 1).join(","));
      // an open that creates or writes is judged as a write below (a temporary file renamed over
      // its target is that target's write); every other open is a read
      if (!writes && (isUnder(real, root) || isUnder(opened, root))) {
        if (!reach(opened, real, me.program))
          findings.push({
            command,
            problem: `${me.program} opened ${real} (as ${opened}), which the classifier did not predict`,
          });
        if (isUnder(real, outside) || askFile(real))
          exposures.push({
            command,
            problem: `${me.program} opened ${real}, which the read tool would not give unasked`,
          });
      }
      if (!writes) continue;
      file = opened;
    } else if (["creat", "unlink", "unlinkat", "mkdir", "mkdirat", "rmdir", "truncate"].includes(call)) {
      file = pathAt(quoted[0]!);
    } else if (["rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat"].includes(call)) {
      file = pathAt(quoted.at(-1)!);
      // a temporary file renamed over a predicted target (sed -i, ln -f) is that target's write
      if (call.startsWith("rename") && covered(file)) temps.delete(pathAt(quoted[0]!));
    } else continue;
    // a reading git rewrites its index with the files' times (status, diff): git's own write,
    // which the sandbox's read-only mode drops and the classifier does not ask about (bash.md)
    const refresh =
      me.program === "git" &&
      /\/index(\.lock)?$/.test(file) &&
      analysis.commands.some((c) => c.git && c.readOnly);
    // a git command that changes the repository writes its .git, wherever the work tree is (needs.ts)
    const gitWrite =
      me.program === "git" && /\/\.git(\/|$)/.test(file) && analysis.writes.some((w) => w.via === "git");
    if (!covered(file) && !refresh && !gitWrite)
      temps.set(file, {
        command,
        problem: `${me.program} wrote ${file} (${call}), which the classifier did not predict`,
      });
  }
  findings.push(...temps.values());
  return { findings, exposures };
}

function isUnder(p: string, dir: string): boolean {
  return p === dir || p.startsWith(`${dir}/`);
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * Whether an opened file is one the classifier predicted: a read or write path as written or as
 * resolved, below a predicted folder (a walk that follows no symlink only where the resolved file
 * is below it too). Two reads of git's own and ripgrep's own are modelled as the repository, not
 * listed: git reads its repository (what git-repos.ts inspects), ripgrep the ignore files up the tree.
 */
function predictedReach(
  analysis: Analysis,
  dir: string,
  home: string,
  made: readonly string[],
): (opened: string, resolved: string, program: string) => boolean {
  const abs = (p: string) => path.resolve(dir, p.replace(/^~(?=\/|$)/, home));
  const paths = [
    ...[...analysis.reads, ...analysis.writes].map((p) => ({
      path: abs(p.path),
      subtree: p.subtree,
      follows: p.follows,
    })),
    // the folders `mkdir -p` makes above its operand (needs.ts lists them as writes)
    ...made.map((m) => ({ path: m, subtree: false, follows: false })),
  ].map((p) => ({ lexical: p.path, real: real(p.path), subtree: p.subtree, follows: p.follows === true }));
  const repos = analysis.commands
    .filter((c) => c.git !== undefined)
    .map((c) => {
      const at = abs(c.git!.dir);
      const top = spawnSync("git", ["rev-parse", "--show-toplevel"], { cwd: at, encoding: "utf8" });
      const gitDir = spawnSync("git", ["rev-parse", "--absolute-git-dir"], { cwd: at, encoding: "utf8" });
      return real((top.status === 0 ? top.stdout : gitDir.stdout).trim() || at);
    });
  const workspace = real(dir);
  const ancestors = new Set<string>();
  for (const p of paths)
    for (const q of [p.lexical, p.real])
      for (let at = path.dirname(q); isUnder(at, workspace); at = path.dirname(at)) ancestors.add(at);
  return (opened, resolved, program) =>
    // a folder on the way to a predicted path, inside the workspace (a glob lists it, find opens `.`)
    ancestors.has(resolved) ||
    resolved === workspace ||
    paths.some(
      (p) =>
        opened === p.lexical ||
        resolved === p.real ||
        (p.subtree && isUnder(opened, p.lexical) && (p.follows || isUnder(resolved, p.real))),
    ) ||
    (program === "git" && repos.some((r) => isUnder(resolved, r))) ||
    (program === "rg" && /(^|\/)(\.gitignore|\.ignore|\.rgignore|\.git\/info\/exclude)$/.test(resolved));
}
