import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import { type HiddenPath, strictlyBelow, within } from "./credentials.js";

/**
 * The system's folders every sandbox shows, read-only: programs, libraries, their configuration
 * (/etc, less SYSTEM_CREDENTIALS), what is installed beside them (/opt, /nix, /gnu, /snap), and
 * /sys (CPU counts, cgroup limits; kernel facts, no one's files). Not /home, /root, /srv, /mnt,
 * /media, /var (its /var/tmp is private and empty, /var/run leads to the private /run), nor any
 * folder mounted elsewhere: a program that needs one is given it by tools.sandboxReadable.
 */
export const SYSTEM_FOLDERS: readonly string[] = [
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/etc",
  "/opt",
  "/sys",
  "/nix",
  "/gnu",
  "/snap",
];

/** Private and empty in every sandbox: what is written there is gone with the command. */
export const PRIVATE_FOLDERS: readonly string[] = ["/tmp", "/run", "/var/tmp", "/dev/shm"];

/** The descriptor the command's runner opens on /dev/null: an empty file to cover a hidden one with. */
export const EMPTY_FD = 4;

export interface MountPlan {
  mode: "read-only" | "workspace-write";
  /** Set only for an approved run (or one a rule let write) that tools.sandboxNetwork lets out. */
  network: boolean;
  /** The workspace and added directories: writable in workspace-write, read-only otherwise. */
  roots: readonly string[];
  /** Shown read-only in both modes (toolchain folders, tools.sandboxReadable, the spill folder). */
  readable: readonly string[];
  /** Existing paths under writable roots bound read-only again on top (.git, .toolplane, ...). */
  readOnly?: readonly string[];
  /** Shown as empty and unreadable (mode 000): credential stores, and ask-first files when read-only. */
  hidden?: readonly HiddenPath[];
  /** $HOME: made as an empty folder, so `cd ~` works and what is shown below it has a parent. */
  home?: string;
  cwd: string;
}

interface Op {
  at: string;
  /** At one depth: the system's and the private folders first, then hiding, then what is shown. */
  rank: 0 | 1 | 2;
  args: string[];
}

let systemOps: Op[] | undefined;

/** The system folders as they are here, looked at once per process (a symlink stays a symlink). */
function systemFolders(): Op[] {
  if (systemOps) return systemOps;
  systemOps = [];
  for (const dir of SYSTEM_FOLDERS) {
    try {
      const s = lstatSync(dir);
      if (s.isSymbolicLink())
        systemOps.push({ at: dir, rank: 0, args: ["--symlink", readlinkSync(dir), dir] });
      else if (s.isDirectory()) systemOps.push({ at: dir, rank: 0, args: ["--ro-bind", dir, dir] });
    } catch {
      // not on this system
    }
  }
  return systemOps;
}

/**
 * bwrap's mount arguments for a plan: an empty root, the system folders read-only, a fresh /dev
 * and /proc, the private folders, $HOME empty, then the shown paths (the roots writable in
 * workspace-write), the protected paths again read-only, and the hidden paths covered; everything
 * in order of depth, so what lies below a mount is mounted after it. Last, the empty root is made
 * read-only: nothing outside the roots and the private folders can be written.
 */
export function mountArgs(plan: MountPlan): string[] {
  const ops: Op[] = [...systemFolders()];
  ops.push({ at: "/dev", rank: 0, args: ["--dev", "/dev"] });
  ops.push({ at: "/proc", rank: 0, args: ["--proc", "/proc"] });
  for (const dir of PRIVATE_FOLDERS) ops.push({ at: dir, rank: 0, args: ["--tmpfs", dir] });
  ops.push({ at: "/var/run", rank: 0, args: ["--symlink", "../run", "/var/run"] });
  if (plan.network) {
    // a resolver's file under /run (systemd-resolved's stub) is the one part of it DNS needs
    const resolv = resolverFile();
    if (resolv !== undefined) ops.push({ at: resolv, rank: 2, args: ["--ro-bind-try", resolv, resolv] });
  }
  // made only where nothing shown holds it (inside a read-only mount it could not be made)
  const home = plan.home;
  if (
    home !== undefined &&
    path.isAbsolute(home) &&
    ![...SYSTEM_FOLDERS, ...plan.readable, ...plan.roots].some((s) => within(home, s))
  )
    ops.push({ at: home, rank: 0, args: ["--dir", home] });
  for (const p of plan.readable) ops.push({ at: p, rank: 2, args: ["--ro-bind-try", p, p] });
  const writable = plan.mode === "workspace-write";
  plan.roots.forEach((r, i) => {
    // the workspace (the first) must be there; an added directory may be gone
    const bind = writable ? (i === 0 ? "--bind" : "--bind-try") : i === 0 ? "--ro-bind" : "--ro-bind-try";
    ops.push({ at: r, rank: 2, args: [bind, r, r] });
  });
  const hiddenDirs = (plan.hidden ?? []).filter((h) => h.dir).map((h) => h.path);
  // what is already inside a hidden folder needs neither covering nor protecting again
  const shownBelow = (p: string, h: string) =>
    [...plan.readable, ...plan.roots].some((b) => strictlyBelow(b, h) && within(p, b));
  const covered = (p: string) => hiddenDirs.some((h) => strictlyBelow(p, h) && !shownBelow(p, h));
  if (writable)
    for (const p of plan.readOnly ?? [])
      if (!covered(p)) ops.push({ at: p, rank: 2, args: ["--ro-bind", p, p] });
  for (const h of plan.hidden ?? []) {
    if (covered(h.path)) continue;
    ops.push({
      at: h.path,
      rank: 1,
      args: h.dir
        ? ["--perms", "0000", "--tmpfs", h.path]
        : ["--perms", "0000", "--ro-bind-data", String(EMPTY_FD), h.path],
    });
  }
  const depth = (p: string) => (p === "/" ? 0 : p.split("/").length - 1);
  // a stable sort: at one depth and rank, the order above
  const ordered = ops
    .map((op, i) => ({ op, i }))
    .sort((a, b) => depth(a.op.at) - depth(b.op.at) || a.op.rank - b.op.rank || a.i - b.i);
  const args = ordered.flatMap(({ op }) => op.args);
  for (const h of hiddenDirs) if (!covered(h)) args.push("--remount-ro", h);
  args.push("--remount-ro", "/");
  return args;
}

function resolverFile(): string | undefined {
  try {
    if (!lstatSync("/etc/resolv.conf").isSymbolicLink()) return undefined;
    const real = realpathSync.native("/etc/resolv.conf");
    return SYSTEM_FOLDERS.some((d) => within(real, d)) ? undefined : real;
  } catch {
    return undefined;
  }
}

/**
 * Where a real path appears inside the sandbox: below the deepest shown path whose real path
 * holds it (the roots and readable paths are mounted where they are named). Undefined: not shown.
 */
export function sandboxPathOf(
  shown: ReadonlyArray<{ at: string; real: string }>,
): (real: string) => string | undefined {
  const sorted = [...shown].sort((a, b) => b.real.length - a.real.length);
  return (real) => {
    const m = sorted.find((s) => within(real, s.real));
    return m === undefined ? undefined : path.join(m.at, path.relative(m.real, real));
  };
}

/**
 * A path of tools.sandboxToolchains or tools.sandboxReadable as the sandbox mounts it: `~/...`
 * below $HOME, `$NAME/...` below that variable (none when it is unset or not absolute).
 */
export function expandPath(p: string, home: string, env: NodeJS.ProcessEnv): string[] {
  if (p === "~" || p.startsWith("~/")) return [path.join(home, p.slice(1))];
  const variable = /^\$([A-Za-z_][A-Za-z0-9_]*)(\/.*)?$/.exec(p);
  if (variable) {
    const value = env[variable[1]!];
    if (value === undefined || !path.isAbsolute(value)) return [];
    return [path.join(value, variable[2] ?? "")];
  }
  return path.isAbsolute(p) ? [path.normalize(p)] : [];
}
