import { existsSync } from "node:fs";
import path from "node:path";
import { pathGlob } from "../../permissions/glob.js";
import { isInside, realpathOfLongestPrefix } from "../../permissions/paths.js";
import { childProcess } from "../../util/child-process.js";
import { executableAs } from "../../util/file-kind.js";
import type { CheckBudget } from "./budget.js";

// What a repository makes a reading git command do. Git reads a repository's own configuration
// (with its includes and its worktree file), its hooks and its index, and enters the repositories
// its index links to: any of them can make `git status` run a program (core.fsmonitor, a
// post-index-change hook, a textconv driver) or read outside the workspace (a gitdir, an
// alternates file). Git itself is asked what it reads (rev-parse, config --list --show-scope,
// ls-files), run with optional locks off, so the check writes nothing; the configuration that
// the repository sets is held to the keys a clone or an init writes.

/** What git reads here, as far as the read-only set needs it. */
export interface RepoFacts {
  /** Why git here is not read-only (a key, a hook, a repository outside): undefined when it is. */
  problem?: string;
  /** The work tree's root (real path); undefined for a bare repository or none. */
  toplevel?: string;
  /** Tracked paths (relative to the toplevel) whose name is in permissions.askFiles. */
  askTracked: string[];
}

/** Keys of a repository's own configuration known to make no git command run a program or read elsewhere. */
const HARMLESS_KEYS = new Set([
  "core.repositoryformatversion",
  "core.filemode",
  "core.bare",
  "core.logallrefupdates",
  "core.ignorecase",
  "core.precomposeunicode",
  "core.symlinks",
  "core.autocrlf",
  "core.eol",
  "core.safecrlf",
  "core.quotepath",
  "core.sparsecheckout",
  "core.sparsecheckoutcone",
  "core.abbrev",
  "core.untrackedcache",
  "core.checkstat",
  "core.trustctime",
  "core.longpaths",
  "core.preloadindex",
  "core.commitgraph",
  "core.multipackindex",
  "index.version",
  "feature.manyfiles",
  "user.name",
  "user.email",
  "init.defaultbranch",
  "pull.rebase",
  "pull.ff",
  "push.default",
  "push.autosetupremote",
  "fetch.prune",
  "merge.conflictstyle",
  "rebase.autostash",
  "status.showuntrackedfiles",
  "extensions.worktreeconfig",
  "extensions.objectformat",
  "lfs.repositoryformatversion",
]);
const HARMLESS_SUBSECTION =
  /^(remote\..+\.(url|fetch|pushurl|tagopt|prune|mirror|skipfetchall)|branch\..+\.(remote|merge|rebase|description|pushremote)|submodule\..+\.(url|active|branch)|color\..+)$/;

/** Hooks a reading command can set off: a refreshed index is written (status, diff, describe --dirty). */
const READ_HOOKS = ["post-index-change", "reference-transaction"];

/** Repositories entered through the index's links before the check gives up (and asks). */
const MAX_REPOSITORIES = 32;

export interface GitContext {
  workspace: string;
  askFiles: readonly string[];
  /** The shell's environment: the git the command runs, its HOME (the user's global configuration). */
  env: Readonly<Record<string, string | undefined>>;
  budget?: CheckBudget;
}

/** Inspects the repository git finds from `dir` and every repository its index links to. */
export function inspectGit(dir: string, ctx: GitContext, seen = new Set<string>()): RepoFacts {
  if (!existsSync(dir)) return { askTracked: [] }; // git fails there: it reads nothing
  const head = git(["rev-parse", "--absolute-git-dir", "--git-common-dir", "--is-bare-repository"], dir, ctx);
  if (head.status !== 0) {
    if (/not a git repository/.test(head.stderr)) return { askTracked: [] };
    return {
      problem: `git cannot read the repository at ${dir} (${firstLine(head.stderr)})`,
      askTracked: [],
    };
  }
  const [gitDirOut, commonOut, bareOut] = head.stdout.split("\n");
  const gitDir = realpathOfLongestPrefix(path.resolve(dir, gitDirOut ?? ""));
  if (seen.has(gitDir)) return { askTracked: [] };
  seen.add(gitDir);
  if (seen.size > MAX_REPOSITORIES)
    return { problem: `git here enters more than ${MAX_REPOSITORIES} repositories`, askTracked: [] };
  const common = realpathOfLongestPrefix(path.resolve(dir, commonOut ?? ""));
  const top = bareOut === "true" ? undefined : git(["rev-parse", "--show-toplevel"], dir, ctx);
  const toplevel = top?.status === 0 ? realpathOfLongestPrefix(top.stdout.trim()) : undefined;
  const root = realpathOfLongestPrefix(ctx.workspace);
  for (const [what, p] of [
    ["repository", gitDir],
    ["repository", common],
    ["work tree", toplevel],
  ] as const) {
    if (p !== undefined && !isInside(p, root))
      return { problem: `git reads the ${what} at ${p}, outside the workspace`, askTracked: [] };
  }
  const config = readConfig(dir, gitDir, toplevel, ctx);
  const problem = config.problem ?? hookOrAlternates(common, toplevel, config.hooksPath, ctx);
  if (problem !== undefined) return { problem, askTracked: [] };
  if (toplevel === undefined) return { askTracked: [] };
  return indexFacts(toplevel, ctx, seen);
}

/**
 * Every configuration git reads here, as git lists it: a key the repository's own files (with
 * their includes and the worktree file) set that is not known to be harmless is the problem; the
 * hooks folder is read from whichever scope sets it.
 */
function readConfig(
  dir: string,
  gitDir: string,
  toplevel: string | undefined,
  ctx: GitContext,
): { problem?: string; hooksPath: string } {
  const r = git(["config", "--list", "--show-scope", "--show-origin", "-z"], dir, ctx);
  if (r.status !== 0)
    return { problem: `git cannot list the configuration at ${dir} (${firstLine(r.stderr)})`, hooksPath: "" };
  let hooksPath = "";
  const fields = r.stdout.split("\0");
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const scope = fields[i]!;
    const origin = fields[i + 1]!;
    const entry = fields[i + 2]!;
    const nl = entry.indexOf("\n");
    const key = nl < 0 ? entry : entry.slice(0, nl);
    const value = nl < 0 ? "" : entry.slice(nl + 1);
    if (key.toLowerCase() === "core.hookspath") hooksPath = value;
    if (scope !== "local" && scope !== "worktree") continue;
    const lower = sectionFold(key);
    if (HARMLESS_KEYS.has(lower) || HARMLESS_SUBSECTION.test(lower)) continue;
    // a submodule's worktree setting names its own work tree
    if (lower === "core.worktree" && toplevel !== undefined) {
      if (realpathOfLongestPrefix(path.resolve(gitDir, value)) === toplevel) continue;
    }
    return {
      problem: `the repository's configuration sets ${key} (${origin.replace(/^file:/, "")}), which can make git run a program or read elsewhere`,
      hooksPath,
    };
  }
  return { hooksPath };
}

/** A hook a reading command sets off, in a hooks folder inside the workspace; or objects borrowed from elsewhere. */
function hookOrAlternates(
  common: string,
  toplevel: string | undefined,
  hooksPath: string,
  ctx: GitContext,
): string | undefined {
  const hooks =
    hooksPath === ""
      ? path.join(common, "hooks")
      : path.resolve(toplevel ?? common, hooksPath.replace(/^~(?=\/)/, ctx.env.HOME ?? "~"));
  if (isInside(realpathOfLongestPrefix(hooks), realpathOfLongestPrefix(ctx.workspace))) {
    for (const name of READ_HOOKS) {
      const hook = path.join(hooks, name);
      if (executableAs(hook, "file"))
        return `the repository has a ${name} hook (${hook}), which a reading git command runs`;
    }
  }
  for (const f of ["alternates", "http-alternates"]) {
    const file = path.join(common, "objects", "info", f);
    if (existsSync(file)) return `the repository borrows objects from elsewhere (${file})`;
  }
  return undefined;
}

/** The index: tracked ask-first files, and the repositories its links (gitlinks) lead into. */
function indexFacts(toplevel: string, ctx: GitContext, seen: Set<string>): RepoFacts {
  const r = git(["ls-files", "--stage", "-z"], toplevel, ctx);
  if (r.status !== 0)
    return { problem: `git cannot list the index at ${toplevel} (${firstLine(r.stderr)})`, askTracked: [] };
  const asks = ctx.askFiles.map((g) => pathGlob(g, true));
  const askTracked: string[] = [];
  for (const line of r.stdout.split("\0")) {
    ctx.budget?.tick(256);
    const tab = line.indexOf("\t");
    if (tab < 0) continue;
    const file = line.slice(tab + 1);
    if (asks.some((m) => m(path.posix.basename(file).normalize("NFC")))) askTracked.push(file);
    if (!line.startsWith("160000 ")) continue;
    // `git status` and `git diff` run git in a linked repository that is checked out
    const inner = path.join(toplevel, file);
    if (!existsSync(path.join(inner, ".git"))) continue;
    const facts = inspectGit(inner, ctx, seen);
    if (facts.problem !== undefined) return { ...facts, problem: `${facts.problem} (entered from ${file})` };
  }
  return { toplevel, askTracked };
}

/** How long one git the check runs may take; past it the check asks (a FIFO planted as an include would hold it). */
const GIT_TIMEOUT_MS = 3_000;

/**
 * One git run of the check. Not counted against the line's budget (its cost is the repository's,
 * not the line's, and a loaded machine must not turn a plain `git status` into a question), but
 * bounded by its own timeout, and the line by MAX_GIT_DIRECTORIES (needs.ts).
 */
function git(
  args: string[],
  cwd: string,
  ctx: GitContext,
): { status: number | null; stdout: string; stderr: string } {
  ctx.budget?.check();
  const run = () =>
    childProcess().spawnSync("git", ["--no-pager", ...args], {
      cwd,
      // the user's git and configuration (PATH, HOME) as the command would have them; nothing written
      env: { ...ctx.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" },
      encoding: "utf8",
      timeout: GIT_TIMEOUT_MS,
      maxBuffer: 256 << 20,
      stdio: ["ignore", "pipe", "pipe"],
    });
  const r = ctx.budget ? ctx.budget.excluding(run) : run();
  return {
    status: r.status,
    stdout: r.stdout ?? "",
    stderr: r.error ? String(r.error.message) : (r.stderr ?? ""),
  };
}

/** git folds section and key names to lower case; a subsection keeps its case. */
function sectionFold(key: string): string {
  const first = key.indexOf(".");
  const last = key.lastIndexOf(".");
  if (first < 0) return key.toLowerCase();
  if (first === last) return key.toLowerCase();
  return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`;
}

function firstLine(s: string): string {
  return s.trim().split("\n")[0]?.slice(0, 200) ?? "";
}
