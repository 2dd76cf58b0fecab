import { accessSync, constants } from "node:fs";
import path from "node:path";
import { childProcess } from "../../util/child-process.js";
import { type MountPlan, mountArgs } from "./mounts.js";

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
  const r = childProcess().spawnSync(binary, [...probeArgs(), "--", "/bin/sh", "-c", "exit 0"], {
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
const ISOLATION = ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"];

/** The probe's run: does bwrap make its namespaces here (the whole root, read-only, is enough). */
function probeArgs(): string[] {
  return ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", ...ISOLATION];
}

export type SandboxPlan = MountPlan;

/**
 * bwrap's arguments: its own namespaces (the network's too, unless the plan lets it out), no
 * capabilities, and the mounts of mounts.ts: only the system folders, the roots, what the plan
 * shows, and private /tmp, /run, /var/tmp and /dev/shm; the roots writable only in
 * workspace-write. Unix sockets of the machine are out of reach too: /run and /var/tmp are empty,
 * $HOME is not there, and abstract sockets are closed by the network namespace.
 */
export function bwrapArgs(plan: SandboxPlan): string[] {
  const args = [...ISOLATION];
  if (plan.network) args.push("--share-net");
  args.push(...mountArgs(plan));
  args.push("--chdir", plan.cwd, "--setenv", "TMPDIR", "/tmp");
  // git status refreshes the index when it can take its lock: nothing may be written, so it does not try
  if (plan.mode === "read-only") args.push("--setenv", "GIT_OPTIONAL_LOCKS", "0");
  return args;
}
