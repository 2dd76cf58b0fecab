import { accessSync, constants, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PermissionContext, PermissionNeed } from "../../declare/types.js";
import { pathGlob } from "../../permissions/glob.js";
import { isInside, realpathOfLongestPrefix } from "../../permissions/paths.js";
import { within } from "../../permissions/protected.js";
import type { PathUse, ShellAnalysis } from "./analysis.js";
import { shellCwd } from "./cwd.js";
import { shellEnvironment } from "./environment.js";
import { expandGlob, expandWords, GLOB_MAX_MATCHES } from "./expand.js";
import { bashParser, type ParsedShell } from "./parser.js";
import { sandboxFor } from "./sandbox-for.js";
import { simpleShell } from "./simple.js";
import { classifyShell } from "./subset.js";

/** A nested script (`bash -c ...`) of a simple line is not simple: the parser must load. */
class ParserNeeded extends Error {}

/**
 * Parses and classifies a command line (the parser loads on first use). With `cwd`, a `cd` into a
 * folder that exists now is known to succeed; `exported` are the names the shell's environment has.
 * A simple line (simple.ts) is classified from the tree tree-sitter-bash would make, built
 * without loading it; anything else, a nested script included, goes to the parser.
 */
export async function analyseCommand(
  command: string,
  home = os.homedir(),
  where: { cwd?: string; exported?: ReadonlySet<string> } = {},
): Promise<ShellAnalysis> {
  const options = (parse: (s: string) => ParsedShell) => ({
    home,
    parse,
    ...(where.cwd !== undefined ? { cwd: where.cwd, isDir: searchableDir, glob: expandGlob } : {}),
    exported: where.exported ?? new Set(Object.keys(process.env)),
  });
  const simple = simpleShell(command);
  if (simple !== undefined) {
    try {
      return classifyShell(
        simple,
        options((s) => {
          const tree = simpleShell(s);
          if (tree === undefined) throw new ParserNeeded();
          return tree;
        }),
      );
    } catch (error) {
      if (!(error instanceof ParserNeeded)) throw error;
    }
  }
  const parser = await bashParser();
  return classifyShell(
    parser.parse(command),
    options((s) => parser.parse(s)),
  );
}

function searchableDir(absolute: string): boolean {
  try {
    if (!statSync(absolute).isDirectory()) return false;
    accessSync(absolute, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * What a bash call needs: `command` for each simple command (its own pattern; one in the default
 * read-only set runs with no rule), `read` for every path a modelled command reads (the read
 * tool's checks), `write` for every target, and an ask for each construct outside the modelled
 * subset and for running without the sandbox that tools.sandbox asks for.
 */
export async function bashNeeds(command: string, ctx: PermissionContext): Promise<PermissionNeed[]> {
  const cwd = shellCwd(ctx);
  const extraEnv = (ctx.config["tools.shellEnv"] as string[] | undefined) ?? [];
  const exported = new Set(Object.keys(shellEnvironment(process.env, extraEnv)));
  const analysis = await analyseCommand(command, os.homedir(), { cwd, exported });
  const sandbox = sandboxFor(ctx.config);
  // the constructs outside the subset first: the first ask is the one a person is shown
  const needs: PermissionNeed[] = analysis.asks.map((a) => ({
    action: "command",
    patterns: [a.text],
    floor: { effect: "ask", reason: a.reason },
  }));
  // the repositories the line's git commands run in: the one holding each path git reads (where it
  // runs, -C included), found as git finds it, not only the workspace's own; read once per line
  let gitRuns: boolean | undefined;
  const gitRunsPrograms = () => {
    gitRuns ??= [
      cwd,
      ...analysis.reads.filter((r) => r.via === "git").map((r) => path.resolve(cwd, r.path)),
    ].some(repositoryRunsPrograms);
    return gitRuns;
  };
  for (const c of analysis.commands) {
    const readOnly =
      c.readOnly !== undefined &&
      runsFromSystem(c.patterns[0]!, cwd, ctx.workspace) &&
      !(isGit(c.patterns[0]!) && gitRunsPrograms());
    needs.push({ action: "command", patterns: c.patterns, ...(readOnly ? { knownSafe: c.readOnly } : {}) });
  }
  const skipTmp = (p: PathUse) => sandbox.active && (p.path === "/tmp" || p.path.startsWith("/tmp/"));
  // the sandbox's /tmp is private: nothing written there outlives the command
  const writes = analysis.writes.filter((w) => !skipTmp(w));
  // a git command that changes the repository writes its .git, wherever in the tree it runs
  if (writes.some((w) => w.via === "git"))
    writes.push({ path: path.join(ctx.workspace, ".git"), subtree: true, glob: false, via: "git" });
  pathNeeds("write", writes, cwd, needs);
  pathNeeds(
    "read",
    analysis.reads.filter((r) => !skipTmp(r)),
    cwd,
    needs,
  );
  const askFiles = (ctx.config["permissions.askFiles"] as string[] | undefined) ?? [];
  for (const r of analysis.reads) {
    if (!r.subtree || r.glob || !(r.contents || r.follows)) continue;
    const found = sensitiveBelow(
      path.resolve(cwd, r.path),
      askFiles,
      r.follows === true ? ctx.workspace : undefined,
    );
    if (found !== undefined) {
      needs.push({
        action: "read",
        patterns: [r.path],
        floor: { effect: "ask", reason: `${r.via} reads the whole folder ${r.path}, which holds ${found}` },
      });
    }
  }
  if (sandbox.mode !== "off" && !sandbox.active) {
    needs.push({
      action: "command",
      patterns: [command],
      floor: { effect: "ask", reason: `it would run without a sandbox: ${sandbox.reason}` },
    });
  }
  return needs;
}

/** Entries a recursive read is checked through for askFiles; past it the read asks (it cannot be checked). */
const SCAN_MAX_ENTRIES = 50_000;

/**
 * The first file below `dir` whose name is in permissions.askFiles (`.env`): the read tool asks
 * for it, so a command that reads the whole folder asks too. .git and node_modules are not
 * entered (docs/tools.md says so).
 */
function sensitiveBelow(dir: string, askFiles: readonly string[], followsFrom?: string): string | undefined {
  if (askFiles.length === 0 && followsFrom === undefined) return undefined;
  const workspace = followsFrom === undefined ? undefined : realpathOfLongestPrefix(followsFrom);
  const matchers = askFiles.map((g) => pathGlob(g, true));
  const queue = [dir];
  let seen = 0;
  for (let next = 0; next < queue.length; next++) {
    const at = queue[next]!;
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++seen > SCAN_MAX_ENTRIES)
        return `more than ${SCAN_MAX_ENTRIES} entries to check for permissions.askFiles`;
      const name = e.name.normalize("NFC");
      if (matchers.some((m) => m(name))) return path.relative(dir, path.join(at, e.name)) || e.name;
      // a command that follows symlinks reads what they point at: outside the workspace it asks
      if (workspace !== undefined && e.isSymbolicLink()) {
        const target = realpathOfLongestPrefix(path.join(at, e.name));
        if (!isInside(target, workspace))
          return `${path.relative(dir, path.join(at, e.name))}, a symlink to ${target} (outside the workspace)`;
      }
      if (e.isDirectory() && e.name !== ".git" && e.name !== "node_modules")
        queue.push(path.join(at, e.name));
    }
  }
  return undefined;
}

/**
 * `mkdir -p a/b/c` also makes a and a/b where they do not exist: those are writes too. Each
 * folder on the path as written is made, `x/../` included (mkdir -p makes x before it goes up).
 */
export function missingAncestors(p: string, cwd: string): string[] {
  const out: string[] = [];
  const parts = p.split("/");
  let prefix = p.startsWith("/") ? "" : cwd;
  for (const part of parts.slice(0, -1)) {
    if (part === "") continue;
    prefix = `${prefix}/${part}`;
    if (part !== "." && part !== ".." && !existsSync(prefix)) out.push(prefix);
  }
  return out;
}

function isGit(pattern: string): boolean {
  return /^(\S*\/)?git( |$)/.test(pattern);
}

/**
 * Whether the repository git would use from `dir` (the nearest `.git` at or above it) has a
 * configuration naming programs that a reading git command runs (`core.fsmonitor` on status, a
 * `filter` or `diff` driver on status and diff, `gpg` on a signature check, a pager), or pulling in
 * other files (`include`): a planted `.git/config`, in the workspace or in a repository nested in
 * it, would turn `git status` into running code. Then git commands leave the read-only set (a rule
 * may still allow them). A `.git` that is a file (a worktree, a submodule) points elsewhere: not
 * read here, so it asks too.
 */
function repositoryRunsPrograms(dir: string): boolean {
  for (let at = dir; ; at = path.dirname(at)) {
    const dotGit = path.join(at, ".git");
    let isDir: boolean;
    try {
      isDir = statSync(dotGit).isDirectory();
    } catch {
      if (at === path.dirname(at)) return false; // no repository: git finds none
      continue;
    }
    if (!isDir) return true;
    let text: string;
    try {
      text = readFileSync(path.join(dotGit, "config"), "utf8");
    } catch {
      return false; // a .git without a config: git uses the defaults
    }
    return /^\s*\[\s*(filter|diff|gpg|include|includeif|pager|credential)\b|^\s*(fsmonitor|pager|sshcommand|askpass|hookspath|editor|textconv|external|worktree)\s*=/im.test(
      text,
    );
  }
}

/** Whether the line writes into `dir` (or a folder above it, whole): its writes there were approved if it runs. */
export async function writesInto(command: string, cwd: string, dir: string): Promise<boolean> {
  const analysis = await analyseCommand(command, os.homedir(), { cwd });
  return analysis.writes.some((w) => {
    const abs = path.resolve(cwd, w.path);
    return within(abs, dir) || (w.subtree && within(dir, abs)) || w.via === "git";
  });
}

/** The paths of one action as one need; globs expanded now (one that names a `-file` asks: bash would pass it as an option). */
function pathNeeds(action: "read" | "write", uses: PathUse[], cwd: string, needs: PermissionNeed[]): void {
  const paths: Array<{ path: string; subtree?: boolean }> = [];
  for (const u of uses) {
    if (!u.glob) {
      paths.push(u.subtree ? { path: u.path, subtree: true } : { path: u.path });
      if (u.ancestors) for (const a of missingAncestors(u.path, cwd)) paths.push({ path: a });
      continue;
    }
    const matches = expandWords(u.path, cwd);
    const dash = matches?.find((m) => path.posix.basename(m).startsWith("-"));
    if (matches === undefined || dash !== undefined) {
      needs.push({
        action,
        patterns: [u.path],
        floor: {
          effect: "ask",
          reason:
            dash !== undefined
              ? `${u.via}: the glob ${u.path} names ${dash}, which the command would take for an option`
              : `${u.via} ${action === "read" ? "reads" : "writes to"} ${u.path}, which names over ${GLOB_MAX_MATCHES} files`,
        },
      });
      continue;
    }
    for (const m of matches) paths.push(u.subtree ? { path: m, subtree: true } : { path: m });
  }
  if (paths.length > 0) needs.push({ action, paths, cwd });
}

/**
 * A read-only command runs with no rule only when its name finds a program outside the workspace
 * (a `cat` script in a folder on PATH that the repository controls is not cat).
 */
function runsFromSystem(pattern: string, cwd: string, workspace: string): boolean {
  const name = pattern.split(" ")[0]!;
  if (name.includes("/")) return !isInside(realpathOfLongestPrefix(path.resolve(cwd, name)), workspace);
  if (["echo", "printf", "true", "false", ":", "pwd", "test", "["].includes(name)) return true;
  for (const dir of (process.env.PATH ?? "").split(":")) {
    const candidate = path.resolve(cwd, dir === "" ? "." : dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (!statSync(candidate).isFile()) continue;
    } catch {
      continue;
    }
    return !isInside(realpathOfLongestPrefix(candidate), realpathOfLongestPrefix(workspace));
  }
  return true; // not found: it runs nothing
}
