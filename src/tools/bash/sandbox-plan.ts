import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ToolContext } from "../../declare/types.js";
import { realpathOfLongestPrefix } from "../../permissions/paths.js";
import { homeDir, toolplaneHome } from "../../util/paths.js";
import { askFilesToHide, SCAN_MAX_ENTRIES, ScanTooLarge } from "../sandbox/ask-files.js";
import {
  credentialStores,
  type HiddenPath,
  hiddenCredentials,
  strictlyBelow,
  within,
} from "../sandbox/credentials.js";
import { gitDirsOutside } from "../sandbox/git-dirs.js";
import { expandPath, type MountPlan, SYSTEM_FOLDERS, sandboxPathOf } from "../sandbox/mounts.js";
import { protectedBinds } from "../sandbox/protect.js";
import type { sandboxFor } from "./sandbox-for.js";

export class SandboxRefused extends Error {}

/** Ask-first files one read-only sandbox covers: each is a mount, and bwrap's arguments must fit in one exec. */
export const HIDDEN_MAX = 2000;

const ASK_INSTEAD =
  "ask the user to approve it (an approved command sees the workspace as it is), or narrow the workspace";

/**
 * The sandbox a call runs in, from the permission check's verdict (ctx.grant): a call that asked
 * nothing and needed only reads and known-safe commands runs read-only (nothing writable but its
 * private /tmp, no network, the ask-first files of the roots hidden); one a person approved, or a
 * rule let write or run a program, runs as tools.sandbox says and sees the ask-first files.
 * Without a verdict (a tool run without a host) it is read-only: fail closed. Every sandbox shows
 * only the system folders, the roots, the toolchain folders and what the user named (credential
 * stores below them hidden). `gitWrites`: whether the line's writes into .git were allowed (then
 * only its hooks and config stay read-only); asked only for a workspace-write run.
 */
export async function sandboxPlan(o: {
  ctx: ToolContext;
  cwd: string;
  sandbox: ReturnType<typeof sandboxFor>;
  gitWrites: () => Promise<boolean>;
}): Promise<{ plan: MountPlan; created: string[] }> {
  const { ctx, sandbox } = o;
  const env = process.env;
  const granted = ctx.grant?.writes === true;
  const mode: MountPlan["mode"] =
    sandbox.mode === "workspace-write" && granted ? "workspace-write" : "read-only";
  const extra = (ctx.config["permissions.additionalDirectories"] as string[] | undefined) ?? [];
  const roots = [ctx.workspace, ...extra.map((d) => path.resolve(ctx.workspace, d))];
  const home = homeDir(env);
  const named = [
    ...((ctx.config["tools.sandboxToolchains"] as string[] | undefined) ?? []),
    ...((ctx.config["tools.sandboxReadable"] as string[] | undefined) ?? []),
  ];
  const rootsReal = roots.map(realpathOfLongestPrefix);
  const readable = [
    ...new Set([
      ...named.flatMap((p) => expandPath(p, home, env)).filter((p) => existsSync(p)),
      // this session's spill folder (the read tool may read it; a model greps a spilled output)
      ...(ctx.paths?.roots ?? []).filter((r) => !rootsReal.includes(r)),
      // a worktree's repository, outside it
      ...roots.flatMap(gitDirsOutside).filter((p) => existsSync(p)),
    ]),
  ];
  const shown = [...SYSTEM_FOLDERS.filter((d) => existsSync(d)), ...readable, ...roots];
  const homes = [home, ...accountHome(home)];
  const hidden = hiddenCredentials(credentialStores(homes, toolplaneHome(env)), shown);
  // a path inside a root is shown by the root, writable with it ($VIRTUAL_ENV in the workspace);
  // bound again only where it lies in a covered store, which the user named it to show
  const insideRoot = (p: string) =>
    roots.some((r) => within(p, r)) || rootsReal.some((r) => within(realpathOfLongestPrefix(p), r));
  const mounted = readable.filter(
    (p) => !insideRoot(p) || hidden.some((h) => h.dir && strictlyBelow(p, h.path)),
  );
  let created: string[] = [];
  let readOnly: string[] = [];
  if (mode === "workspace-write") {
    const guarded = ctx.paths?.protected ?? [
      path.join(ctx.workspace, ".git"),
      path.join(ctx.workspace, ".toolplane"),
    ];
    // writes into .git reached the run only if a rule allowed them by path (or a person did): then
    // .git is writable but for its hooks and config, which run code at the next git
    const binds = protectedBinds({ protectedPaths: guarded, roots, gitWritesAllowed: await o.gitWrites() });
    created = binds.created;
    readOnly = binds.readOnly;
  }
  if (!granted) {
    // what the read tool would ask for is not there for a command nobody was asked about
    const askFiles =
      ctx.paths?.askFiles ?? (ctx.config["permissions.askFiles"] as string[] | undefined) ?? [];
    // a symlink in the workspace may point into any shown folder (/opt, a toolchain's): covered there
    const inSandbox = sandboxPathOf(shown.map((at) => ({ at, real: realpathOfLongestPrefix(at) })));
    let files: HiddenPath[];
    try {
      files = await askFilesToHide(roots, askFiles, inSandbox);
    } catch (error) {
      if (!(error instanceof ScanTooLarge)) throw error;
      throw new SandboxRefused(
        `the workspace holds ${error.message} entries outside .git and node_modules (the most the read-only sandbox checks is ${SCAN_MAX_ENTRIES.toLocaleString("en-US")}), so it cannot hide the files permissions.askFiles names, and the command did not run: ${ASK_INSTEAD}`,
      );
    }
    if (files.length > HIDDEN_MAX)
      throw new SandboxRefused(
        `the workspace holds ${files.length.toLocaleString("en-US")} files that permissions.askFiles names (the read-only sandbox covers at most ${HIDDEN_MAX.toLocaleString("en-US")}, one mount each), and the command did not run: ${ASK_INSTEAD}`,
      );
    // a file that is both (~/.npmrc in a workspace that is the home folder) is covered once
    const known = new Set(hidden.map((h) => h.path));
    hidden.push(...files.filter((f) => !known.has(f.path)));
  }
  const plan: MountPlan = {
    mode,
    network: sandbox.network && granted,
    roots,
    readable: mounted,
    readOnly,
    hidden,
    home,
    cwd: o.cwd,
  };
  return { plan, created };
}

/** The account's own home folder when $HOME names another: its credential stores are hidden too. */
function accountHome(home: string): string[] {
  try {
    const own = os.userInfo().homedir;
    return own && own !== home ? [own] : [];
  } catch {
    return [];
  }
}
