import type { Dirent } from "node:fs";
import { lstat, readdir, realpath } from "node:fs/promises";
import path from "node:path";
import { askFilesMatcher } from "../../permissions/evaluate.js";
import type { HiddenPath } from "./credentials.js";

/**
 * Entries one scan may visit (in folders read now or known from an earlier scan). Past it the
 * read-only sandbox cannot say which files to hide, and the command does not run (fail closed).
 */
export const SCAN_MAX_ENTRIES = 1_000_000;

/** Not entered, as the classifier's scan of a recursive read does not (docs/bash.md). */
const SKIPPED = new Set([".git", "node_modules"]);

/** What one folder held when it was read, kept while its mtime says nothing was added or removed. */
interface Listing {
  dev: number;
  ino: number;
  mtimeNs: bigint;
  /** Read within RACY_MS of its last change: a change in the same clock tick would not show. */
  racy: boolean;
  /** Names (not folders) that askFiles matches. */
  matched: string[];
  /** Symlinks that do not match: where they point may. */
  links: string[];
  subdirs: string[];
  entries: number;
}

/** A folder's mtime moves on every name added, removed or renamed in it, in the kernel's clock ticks. */
const RACY_MS = 2000;
/** Folders remembered per askFiles list; past it no more are kept, and the next scan starts over. */
const CACHE_MAX_FOLDERS = 200_000;
const CONCURRENCY = 16;

const caches = new Map<string, Map<string, Listing>>();

export class ScanTooLarge extends Error {}

/** Forgets every folder scanned (a benchmark's cold scan; nothing else needs it). */
export function forgetScans(): void {
  caches.clear();
}

/**
 * The files below `roots` that permissions.askFiles names (by their name, or by the name of the
 * file a symlink points at, as the read tool checks both), as the sandbox must hide them: each at
 * its real path, mapped by `inSandbox` to where the sandbox shows it (undefined: not shown, so
 * nothing to hide). A file with other hard links is hidden under each of its names in the roots.
 *
 * Cost: every folder is read once per process; a later scan lstats each folder and reads again
 * only those whose mtime moved (so ~1 lstat per folder on a workspace that did not change).
 * Throws ScanTooLarge past SCAN_MAX_ENTRIES.
 */
export async function askFilesToHide(
  roots: readonly string[],
  globs: readonly string[],
  inSandbox: (real: string) => string | undefined,
): Promise<HiddenPath[]> {
  if (globs.length === 0) return [];
  const matches = askFilesMatcher(globs);
  const key = globs.join("\0");
  let cache = caches.get(key);
  if (!cache || cache.size > CACHE_MAX_FOLDERS) {
    cache = new Map();
    caches.set(key, cache);
  }
  const found: string[] = [];
  const links: string[] = [];
  await walk(roots, cache, matches, (dir, l) => {
    for (const n of l.matched) found.push(path.join(dir, n));
    for (const n of l.links) links.push(path.join(dir, n));
  });

  const out = new Map<string, HiddenPath>();
  const hide = async (real: string) => {
    let s: Awaited<ReturnType<typeof lstat>>;
    try {
      s = await lstat(real);
    } catch {
      return undefined;
    }
    const at = inSandbox(real);
    if (at !== undefined) out.set(at, { path: at, dir: s.isDirectory() });
    return s;
  };
  const linked = new Set<string>();
  const hideWithLinks = async (real: string) => {
    const s = await hide(real);
    if (s?.isFile() && s.nlink > 1) linked.add(`${s.dev}:${s.ino}`);
  };
  for (const f of found) {
    const real = await realOrUndefined(f);
    if (real !== undefined) await hideWithLinks(real); // a dangling symlink shows nothing
  }
  for (const l of links) {
    const real = await realOrUndefined(l);
    if (real !== undefined && matches(path.basename(real).normalize("NFC"))) await hideWithLinks(real);
  }
  // a hard link is the same file under a name askFiles does not know: rare (a copy with `ln`),
  // so only then is every file of the roots looked at, .git and node_modules included
  if (linked.size > 0) for (const p of await sameFiles(roots, linked)) await hide(p);
  return [...out.values()];
}

async function walk(
  roots: readonly string[],
  cache: Map<string, Listing>,
  matches: (name: string) => boolean,
  each: (dir: string, listing: Listing) => void,
): Promise<void> {
  const queue: string[] = [];
  for (const r of roots) {
    const real = await realOrUndefined(r);
    if (real !== undefined) queue.push(real);
  }
  let entries = 0;
  const visit = async (dir: string) => {
    const listing = await listingOf(dir, cache, matches);
    if (listing === undefined) return;
    entries += listing.entries;
    if (entries > SCAN_MAX_ENTRIES)
      throw new ScanTooLarge(`more than ${SCAN_MAX_ENTRIES.toLocaleString("en-US")}`);
    each(dir, listing);
    for (const s of listing.subdirs) queue.push(path.join(dir, s));
  };
  await pool(queue, visit);
}

/** Runs `work` over a queue that grows while it runs, CONCURRENCY at a time; the first error stops it. */
async function pool(queue: string[], work: (item: string) => Promise<void>): Promise<void> {
  let failed: unknown;
  let active = 0;
  await new Promise<void>((resolve) => {
    const next = () => {
      while (failed === undefined && active < CONCURRENCY && queue.length > 0) {
        const item = queue.pop()!;
        active++;
        work(item).then(
          () => {
            active--;
            next();
          },
          (error) => {
            failed ??= error;
            active--;
            next();
          },
        );
      }
      if (active === 0 && (queue.length === 0 || failed !== undefined)) resolve();
    };
    next();
  });
  if (failed !== undefined) throw failed;
}

async function listingOf(
  dir: string,
  cache: Map<string, Listing>,
  matches: (name: string) => boolean,
): Promise<Listing | undefined> {
  let s: import("node:fs").BigIntStats;
  try {
    s = await lstat(dir, { bigint: true });
  } catch {
    cache.delete(dir);
    return undefined;
  }
  if (!s.isDirectory()) return undefined;
  const known = cache.get(dir);
  if (
    known &&
    !known.racy &&
    known.mtimeNs === s.mtimeNs &&
    known.ino === Number(s.ino) &&
    known.dev === Number(s.dev)
  )
    return known;
  const readAt = Date.now();
  let dirents: Dirent[];
  try {
    dirents = await readdir(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const listing: Listing = {
    dev: Number(s.dev),
    ino: Number(s.ino),
    mtimeNs: s.mtimeNs,
    racy: readAt - Number(s.mtimeMs) < RACY_MS,
    matched: [],
    links: [],
    subdirs: [],
    entries: dirents.length,
  };
  for (const e of dirents) {
    if (e.isDirectory()) {
      if (!SKIPPED.has(e.name)) listing.subdirs.push(e.name);
    } else if (matches(e.name.normalize("NFC"))) listing.matched.push(e.name);
    else if (e.isSymbolicLink()) listing.links.push(e.name);
  }
  // past the bound a folder is read every time, not kept: memory stays bounded on any tree
  if (cache.size < CACHE_MAX_FOLDERS) cache.set(dir, listing);
  return listing;
}

/** Every file below the roots (nothing skipped) that is one of the `linked` files (dev:ino). */
async function sameFiles(roots: readonly string[], linked: ReadonlySet<string>): Promise<string[]> {
  const out: string[] = [];
  const queue: string[] = [];
  for (const r of roots) {
    const real = await realOrUndefined(r);
    if (real !== undefined) queue.push(real);
  }
  let entries = 0;
  await pool(queue, async (dir) => {
    let dirents: Dirent[];
    try {
      dirents = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries += dirents.length;
    if (entries > SCAN_MAX_ENTRIES)
      throw new ScanTooLarge(`more than ${SCAN_MAX_ENTRIES.toLocaleString("en-US")}`);
    for (const e of dirents) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) queue.push(p);
      else if (e.isFile()) {
        try {
          const s = await lstat(p);
          if (s.nlink > 1 && linked.has(`${s.dev}:${s.ino}`)) out.push(p);
        } catch {
          // gone
        }
      }
    }
  });
  return out;
}

async function realOrUndefined(p: string): Promise<string | undefined> {
  try {
    return await realpath(p);
  } catch {
    return undefined;
  }
}
