import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import picomatch from "picomatch";
import { analyseCommand } from "../../src/tools/bash/analyse.js";
import { isModelled } from "../../src/tools/bash/commands/index.js";
import { shellEnvironment } from "../../src/tools/bash/environment.js";
import { missingAncestors } from "../../src/tools/bash/needs.js";

/**
 * The differential check of the bash classifier against real bash: a command line the classifier
 * does not ask about is run by bash under `strace -f` (inside bubblewrap, so a classifier bug
 * cannot reach this machine's files), and every program bash itself starts and every file the
 * shell or a modelled command opens for writing must be one the classifier predicted.
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

/** The fixture every command runs in: a few files, a folder, a file whose name is an option. */
export function makeFixture(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "src", "sub"), { recursive: true });
  mkdirSync(path.join(dir, "dash"));
  for (const f of [
    "file.txt",
    "other.txt",
    "src/a.ts",
    "src/b.ts",
    "src/sub/c.ts",
    "dash/a",
    "dash/--pre=touch",
  ])
    writeFileSync(path.join(dir, f), "alpha\nbeta\n");
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
): Promise<{ ran: boolean; findings: Finding[] }> {
  makeFixture(dir);
  const home = "/nonexistent-home";
  const analysis = await analyseCommand(command, home, {
    cwd: dir,
    exported: new Set(Object.keys(process.env)),
  });
  if (analysis.asks.length > 0) return { ran: false, findings: [] };
  // mkdir -p makes the folders above its operand that are missing now: the classifier's needs list them
  const made: string[] = [];
  for (const w of analysis.writes.filter((x) => x.ancestors)) made.push(...missingAncestors(w.path, dir));
  const log = path.join(path.dirname(dir), `${path.basename(dir)}.strace`);
  const env = { ...shellEnvironment(process.env), HOME: home, PAGER: "cat", GIT_PAGER: "cat" };
  spawnSync(
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
    { env, timeout: 10_000, killSignal: "SIGKILL", stdio: ["ignore", "ignore", "ignore"] },
  );
  const trace = existsSync(log) ? readFileSync(log, "utf8") : "";
  rmSync(log, { force: true });
  return { ran: true, findings: compare(command, analysis, trace, dir, home, made) };
}

type Analysis = Awaited<ReturnType<typeof analyseCommand>>;

function compare(
  command: string,
  analysis: Analysis,
  trace: string,
  dir: string,
  home: string,
  made: readonly string[],
): Finding[] {
  const findings: Finding[] = [];
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
    const m = /^(\d+)\s+(\w+)\((.*)\)\s+=\s+(-?\d+|\?)/.exec(line);
    if (!m) continue;
    const [, pid, call, argsText, result] = m as unknown as [string, string, string, string, string];
    const ok = result !== "?" && !result.startsWith("-");
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
      if (!state.has(result)) {
        cwd.set(result, here);
        state.set(result, { ...me });
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
      if (!WRITE_FLAGS.test(tokens.slice(quoted[0]! + 1).join(","))) continue;
      file = pathAt(quoted[0]!);
    } else if (["creat", "unlink", "unlinkat", "mkdir", "mkdirat", "rmdir", "truncate"].includes(call)) {
      file = pathAt(quoted[0]!);
    } else if (["rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat"].includes(call)) {
      file = pathAt(quoted.at(-1)!);
      // a temporary file renamed over a predicted target (sed -i, ln -f) is that target's write
      if (call.startsWith("rename") && covered(file)) temps.delete(pathAt(quoted[0]!));
    } else continue;
    if (!covered(file))
      temps.set(file, {
        command,
        problem: `${me.program} wrote ${file} (${call}), which the classifier did not predict`,
      });
  }
  findings.push(...temps.values());
  return findings;
}
