import { lstatSync, readlinkSync } from "node:fs";
import path from "node:path";

// One model of where a path leads for the shell, not for toolplane: bash's `cd` is logical
// (`cd link/..` goes back to where the link is, not above its target), a path the kernel opens
// is physical (`link/../x` is x beside the link's target), and /proc/self and /dev/fd are the
// shell's own (its directory, its descriptors), whatever toolplane's are.

/**
 * Where bash's `cd TARGET` (without -P) goes from the logical directory `pwd`: the target joined
 * to it and made canonical by text (`.` dropped, `..` taking off the last name), each folder
 * before a `..` checked to be one, as bash does; undefined when that check fails (bash then
 * changes to the target as the kernel resolves it, and takes the physical directory).
 */
export function logicalCd(pwd: string, target: string, isDir: (abs: string) => boolean): string | undefined {
  const joined = target.startsWith("/") ? target : `${pwd}/${target}`;
  const kept: string[] = [];
  for (const part of joined.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (!isDir(`/${kept.join("/")}`)) return undefined;
      kept.pop();
      continue;
    }
    kept.push(part);
  }
  const out = `/${kept.join("/")}`;
  return isDir(out) ? out : undefined;
}

/** `cd TARGET` when its success cannot be checked now: known only when no `..` makes logical and physical differ. */
export function plainCd(pwd: string, target: string): string | undefined {
  const parts = target.split("/");
  if (parts.includes("..")) return undefined;
  const joined = target.startsWith("/") ? target : `${pwd}/${target}`;
  return `/${joined
    .split("/")
    .filter((p) => p !== "" && p !== ".")
    .join("/")}`;
}

/** What a path in the shell's /proc/self or /dev/fd stands for, from the shell's own state. */
export type ProcPath =
  /** Not such a path: as written. */
  | { kind: "plain" }
  /** `/proc/self/cwd/rest` (the shell's directory) or `/proc/self/root/rest` ("/"). */
  | { kind: "moved"; base: "cwd" | "root"; rest: string }
  /** A descriptor of the process (`/dev/fd/3`, `/dev/stdin`): a file the shell opened itself, or a pipe. */
  | { kind: "descriptor" }
  /** Below a descriptor, or another process's directory: not modelled. */
  | { kind: "unknown"; why: string };

export function procPath(p: string): ProcPath {
  const self = /^\/proc\/(?:self|thread-self)\/(cwd|root)(\/.*)?$/.exec(p);
  if (self)
    return { kind: "moved", base: self[1] as "cwd" | "root", rest: (self[2] ?? "").replace(/^\/+/, "") };
  if (/^\/dev\/(?:std(?:in|out|err)|fd\/\d+)$|^\/proc\/(?:self|thread-self)\/fd\/\d+$/.test(p))
    return { kind: "descriptor" };
  if (/^\/dev\/(?:std(?:in|out|err)|fd\/\d+)\/|^\/proc\/(?:self|thread-self)\/fd\/\d+\//.test(p))
    return { kind: "unknown", why: `${p} leads below an open descriptor` };
  if (/^\/proc\/\d+\/(?:cwd|root|fd)(?:\/|$)/.test(p))
    return { kind: "unknown", why: `${p} is another process's directory or descriptor` };
  return { kind: "plain" };
}

const MAGIC = /^\/proc(\/|$)|^\/dev\/(fd|std(in|out|err))(\/|$)/;

/** Symlinks followed before the walk gives up (the kernel's ELOOP limit). */
const MAX_LINKS = 40;

/**
 * Whether the kernel, opening `absolute`, would pass through a symlink into /proc or /dev/fd
 * (a planted `link -> /proc/self/cwd`): what such a link reaches depends on the process that
 * opens it, so toolplane's own realpath of it says nothing about the shell's. Returns the link.
 */
export function magicLinkOn(absolute: string): string | undefined {
  let pending = absolute.split("/").filter((p) => p !== "");
  let at = "/";
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === ".") continue;
    if (part === "..") {
      at = path.posix.dirname(at);
      continue;
    }
    const next = at === "/" ? `/${part}` : `${at}/${part}`;
    // reached through a link, /proc and /dev/fd are the opening process's, not toolplane's
    if (hops > 0 && MAGIC.test(next)) return next;
    let target: string;
    try {
      if (!lstatSync(next).isSymbolicLink()) {
        at = next;
        continue;
      }
      target = readlinkSync(next);
    } catch {
      return undefined; // the rest does not exist: no link further on
    }
    if (++hops > MAX_LINKS) return next;
    if (MAGIC.test(target)) return next;
    pending = [...target.split("/").filter((p) => p !== ""), ...pending];
    if (target.startsWith("/")) at = "/";
  }
  return undefined;
}
