import { accessSync, constants, lstatSync } from "node:fs";
import path from "node:path";
import { childProcess } from "../../util/child-process.js";

export type SandboxMode = "off" | "read-only" | "workspace-write";

export interface SandboxSupport {
  available: boolean;
  /** The bwrap binary, when found. */
  binary?: string;
  /** Why not, and how to get it: shown by doctor and in the approval a command then needs. */
  reason?: string;
}

export const INSTALL_HINT =
  "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)";

const cache = new Map<string, SandboxSupport>();

/**
 * Whether commands can run under bubblewrap here: Linux, a `bwrap` on PATH (or the one named by
 * TOOLPLANE_BWRAP), and a probe run that works (a container without user namespaces has the binary
 * but cannot use it). Probed once per binary and process.
 */
export function sandboxSupport(env: NodeJS.ProcessEnv = process.env): SandboxSupport {
  if (process.platform !== "linux") {
    return {
      available: false,
      reason: `the sandbox uses bubblewrap, which runs on Linux only (this is ${process.platform})`,
    };
  }
  const binary = env.TOOLPLANE_BWRAP ?? findOnPath("bwrap", env.PATH ?? "");
  if (binary === undefined)
    return { available: false, reason: `bubblewrap (bwrap) is not installed: ${INSTALL_HINT}` };
  let known = cache.get(binary);
  if (known === undefined) {
    known = probe(binary);
    cache.set(binary, known);
  }
  return known;
}

function findOnPath(name: string, searchPath: string): string | undefined {
  for (const dir of [...searchPath.split(path.delimiter).filter(Boolean), "/usr/bin", "/bin"]) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function probe(binary: string): SandboxSupport {
  const r = childProcess().spawnSync(binary, [...baseArgs(false), "--", "/bin/sh", "-c", "exit 0"], {
    encoding: "utf8",
    timeout: 10_000,
    stdio: ["ignore", "ignore", "pipe"],
  });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "does not exist" : r.error.message;
    return { available: false, binary, reason: `bubblewrap at ${binary} ${why}: ${INSTALL_HINT}` };
  }
  if (r.status !== 0) {
    const said = (r.stderr ?? "").trim().split("\n")[0] ?? "";
    return {
      available: false,
      binary,
      reason: `bubblewrap at ${binary} cannot create a sandbox here (${said || `exit ${r.status}`}): user namespaces may be disabled`,
    };
  }
  return { available: true, binary };
}

/** Isolation every sandboxed command gets: its own namespaces, no capabilities, dies with its parent. */
function baseArgs(network: boolean): string[] {
  return [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    "--unshare-all",
    ...(network ? ["--share-net"] : []),
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
  ];
}

export interface SandboxPlan {
  mode: Exclude<SandboxMode, "off">;
  network: boolean;
  /** Writable in workspace-write (the workspace and added directories); read-only otherwise. */
  roots: readonly string[];
  /** Existing paths under the roots bound read-only again on top (.git, .toolplane, tool modules). */
  readOnly?: readonly string[];
  cwd: string;
}

/**
 * bwrap's arguments: the whole filesystem read-only, a private /tmp, a fresh /dev and /proc, no
 * network (unless allowed), and the workspace bound back on top, writable only in workspace-write.
 * The binds come after the /tmp mount, so a workspace under /tmp is still the real one.
 */
export function bwrapArgs(plan: SandboxPlan): string[] {
  const args = baseArgs(plan.network);
  // without the network, unix sockets are closed too: /run and /var/tmp (where docker, D-Bus,
  // agents and runtimes keep theirs) are empty and private, like /tmp; abstract sockets are
  // closed by the network namespace. Sockets elsewhere (under $HOME) stay reachable: bubblewrap
  // has no filter for connect() (docs/bash.md).
  if (!plan.network) for (const dir of PRIVATE_WHEN_OFFLINE) if (isRealDir(dir)) args.push("--tmpfs", dir);
  for (const root of plan.roots)
    args.push(plan.mode === "workspace-write" ? "--bind" : "--ro-bind", root, root);
  if (plan.mode === "workspace-write") for (const p of plan.readOnly ?? []) args.push("--ro-bind", p, p);
  args.push("--chdir", plan.cwd, "--setenv", "TMPDIR", "/tmp");
  return args;
}

const PRIVATE_WHEN_OFFLINE = ["/run", "/var/run", "/var/tmp", "/dev/shm"];

function isRealDir(dir: string): boolean {
  try {
    return lstatSync(dir).isDirectory();
  } catch {
    return false;
  }
}
