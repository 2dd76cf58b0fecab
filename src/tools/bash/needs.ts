import { accessSync, constants, existsSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PermissionContext, PermissionNeed } from "../../declare/types.js";
import { isInside, realpathOfLongestPrefix, resolvePath } from "../../permissions/paths.js";
import { within } from "../../permissions/protected.js";
import { analyseCommand } from "./analyse.js";
import type { PathUse, ShellAnalysis } from "./analysis.js";
import { BraceUnknown } from "./braces.js";
import { BudgetSpent, CHECK_BUDGET_MS, CheckBudget } from "./budget.js";
import { shellCwd } from "./cwd.js";
import { shellEnvironment } from "./environment.js";
import { expandWords, GLOB_MAX_MATCHES } from "./expand.js";
import { inspectGit, type RepoFacts } from "./git-repos.js";
import { GlobUnknown } from "./glob.js";
import { sandboxFor } from "./sandbox-for.js";
import { reachBelow } from "./scan.js";
import { magicLinkOn } from "./shell-paths.js";

/**
 * What a bash call needs: `command` for each simple command (its own pattern; one in the default
 * read-only set runs with no rule), `read` for every path a modelled command reads (the read
 * tool's checks), `write` for every target, and an ask for each construct outside the modelled
 * subset and for running without the sandbox that tools.sandbox asks for.
 */
export async function bashNeeds(
  command: string,
  ctx: PermissionContext,
  clock: { now?: () => number; budgetMs?: number } = {},
): Promise<PermissionNeed[]> {
  const budget = new CheckBudget(clock.budgetMs ?? CHECK_BUDGET_MS, clock.now);
  try {
    return await checkedNeeds(command, ctx, budget);
  } catch (error) {
    if (!(error instanceof BudgetSpent)) throw error;
    // a check that has not finished has decided nothing: the whole line is one question
    return [{ action: "command", patterns: [command], floor: { effect: "ask", reason: error.message } }];
  }
}

async function checkedNeeds(
  command: string,
  ctx: PermissionContext,
  budget: CheckBudget,
): Promise<PermissionNeed[]> {
  const cwd = shellCwd(ctx);
  const extraEnv = (ctx.config["tools.shellEnv"] as string[] | undefined) ?? [];
  const env = shellEnvironment(process.env, extraEnv);
  const analysis = await analyseCommand(command, os.homedir(), { cwd, env, budget });
  const sandbox = sandboxFor(ctx.config);
  // the constructs outside the subset first: the first ask is the one a person is shown
  const needs: PermissionNeed[] = analysis.asks.map((a) => ({
    action: "command",
    patterns: [a.text],
    floor: { effect: "ask", reason: a.reason },
  }));
  const askFiles = (ctx.config["permissions.askFiles"] as string[] | undefined) ?? [];
  // what the repositories the line's git commands run in make git do: asked of git, once per folder
  const repos = new Map<string, RepoFacts>();
  const factsOf = (dir: string): RepoFacts => {
    const abs = path.resolve(cwd, dir);
    let facts = repos.get(abs);
    if (facts === undefined) {
      facts =
        repos.size >= MAX_GIT_DIRECTORIES
          ? { problem: `git runs in more than ${MAX_GIT_DIRECTORIES} folders of one line`, askTracked: [] }
          : inspectGit(abs, { workspace: ctx.workspace, askFiles, env, budget });
      repos.set(abs, facts);
    }
    return facts;
  };
  for (const c of analysis.commands) {
    let readOnly = c.readOnly !== undefined && runsFromSystem(c.patterns[0]!, cwd, ctx.workspace);
    if (readOnly && c.git !== undefined) {
      const facts = factsOf(c.git.dir);
      // a repository that makes git run a program or read elsewhere takes git out of the read-only set
      if (facts.problem !== undefined) readOnly = false;
      else if (c.git.contents) {
        const shown = trackedShown(facts, path.resolve(cwd, c.git.dir), c.git.pathspecs);
        if (shown !== undefined)
          needs.push({
            action: "read",
            patterns: [shown],
            floor: {
              effect: "ask",
              reason: `${c.patterns[0]} prints ${shown}, a file the repository tracks whose name is in permissions.askFiles`,
            },
          });
      }
    }
    needs.push({ action: "command", patterns: c.patterns, ...(readOnly ? { knownSafe: c.readOnly } : {}) });
  }
  const extra = (ctx.config["permissions.additionalDirectories"] as string[] | undefined) ?? [];
  const roots = [ctx.workspace, ...extra.map((d) => path.resolve(ctx.workspace, d))];
  // the sandbox's /tmp is private: nothing there is the machine's, nothing written there outlives it
  const skipTmp = (p: PathUse) => sandbox.active && inPrivateTmp(path.resolve(cwd, p.path), cwd, roots);
  for (const p of [...analysis.reads, ...analysis.writes]) {
    budget.tick(16);
    const link = magicLinkOn(path.resolve(cwd, p.path));
    if (link !== undefined)
      needs.push({
        action: "command",
        patterns: [p.path],
        floor: {
          effect: "ask",
          reason: `${p.via} reaches ${p.path} through ${link}, which leads into /proc or /dev/fd (the process's own, not known now)`,
        },
      });
  }
  const writes = analysis.writes.filter((w) => !skipTmp(w));
  // a git command that changes the repository writes its .git, wherever in the tree it runs
  if (writes.some((w) => w.via === "git"))
    writes.push({ path: path.join(ctx.workspace, ".git"), subtree: true, glob: false, via: "git" });
  pathNeeds("write", writes, cwd, needs, budget);
  pathNeeds(
    "read",
    analysis.reads.filter((r) => !skipTmp(r)),
    cwd,
    needs,
    budget,
  );
  for (const r of analysis.reads) {
    if (!r.subtree || r.glob || !(r.contents || r.follows || r.visible)) continue;
    const found = reachBelow(path.resolve(cwd, r.path), r, askFiles, ctx.workspace, budget);
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

/** Whether the line writes into `dir` (or a folder above it, whole): its writes there were approved if it runs. */
export async function writesInto(command: string, cwd: string, dir: string): Promise<boolean> {
  let analysis: ShellAnalysis;
  try {
    analysis = await analyseCommand(command, os.homedir(), { cwd, budget: new CheckBudget(CHECK_BUDGET_MS) });
  } catch (error) {
    if (error instanceof BudgetSpent) return false; // unknown: the protected paths stay read-only
    throw error;
  }
  return analysis.writes.some((w) => {
    const abs = path.resolve(cwd, w.path);
    return within(abs, dir) || (w.subtree && within(dir, abs)) || w.via === "git";
  });
}

/** The paths of one action as one need; globs expanded now (one that names a `-file` asks: bash would pass it as an option). */
function pathNeeds(
  action: "read" | "write",
  uses: PathUse[],
  cwd: string,
  needs: PermissionNeed[],
  budget: CheckBudget,
): void {
  const paths: Array<{ path: string; subtree?: boolean }> = [];
  for (const u of uses) {
    if (!u.glob) {
      paths.push(u.subtree ? { path: u.path, subtree: true } : { path: u.path });
      if (u.ancestors) for (const a of missingAncestors(u.path, cwd)) paths.push({ path: a });
      continue;
    }
    let matches: string[] | undefined;
    try {
      matches = expandWords(u.path, cwd, budget);
    } catch (error) {
      if (!(error instanceof GlobUnknown || error instanceof BraceUnknown)) throw error;
      needs.push({
        action,
        patterns: [u.path],
        floor: { effect: "ask", reason: `${u.via}: ${error.message}` },
      });
      continue;
    }
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

/**
 * Whether a path the line names lies in the sandbox's private /tmp: lexically and as the kernel
 * resolves it (a `/tmp/../etc/x` is /etc/x; a `../x` from a folder under /tmp may be anywhere),
 * and not in a folder the sandbox binds back there (a workspace under /tmp is the real one).
 */
function inPrivateTmp(lexical: string, cwd: string, roots: readonly string[]): boolean {
  const under = (p: string) => p === "/tmp" || p.startsWith("/tmp/");
  const normal = path.posix.normalize(lexical);
  const real = resolvePath(lexical, cwd, cwd).real;
  if (!under(normal) || !under(real)) return false;
  return !roots.some((r) => {
    const root = realpathOfLongestPrefix(path.resolve(r));
    return [normal, real].some((p) => within(p, root) || within(root, p) || within(p, r) || within(r, p));
  });
}

/** Folders whose repositories one line's git commands may run in before the line asks. */
const MAX_GIT_DIRECTORIES = 8;

/**
 * The first tracked ask-first file a content-printing git command run in `dir` shows: every one
 * when no pathspec narrows it (or one is a pattern, or magic), else those at or below a pathspec.
 */
function trackedShown(facts: RepoFacts, dir: string, pathspecs: readonly string[]): string | undefined {
  if (facts.toplevel === undefined || facts.askTracked.length === 0) return undefined;
  const here = path.relative(facts.toplevel, realpathOfLongestPrefix(dir));
  const specs = pathspecs.map((p) =>
    p.startsWith(":") || /[*?[]/.test(p) ? "" : path.posix.normalize(path.posix.join(here, p)),
  );
  return facts.askTracked.find(
    (f) =>
      specs.length === 0 ||
      specs.some((s) => s === "" || s === "." || f === s || f.startsWith(`${s.replace(/\/$/, "")}/`)),
  );
}
