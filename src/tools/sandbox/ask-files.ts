import { type BigIntStats, type Dirent, lstatSync, readdirSync, realpathSync, type Stats } from "node:fs";
import path from "node:path";
import { setImmediate as yieldToLoop } from "node:timers/promises";
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
/**
 * Folders read between two turns of the event loop. The scan is synchronous (measured on 100,000
 * files in 2,000 folders: half the CPU of fs.promises for a first scan, a quarter for a later
 * one, where each folder is one lstat), and yields this often so that a first scan of a large
 * tree does not hold up the rest of the process for its whole length.
 */
const FOLDERS_PER_TURN = 256;

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
  const hide = (real: string): Stats | undefined => {
    const st = lstatSync(real, { throwIfNoEntry: false });
    if (st === undefined) return undefined;
    const at = inSandbox(real);
    if (at !== undefined) out.set(at, { path: at, dir: st.isDirectory() });
    return st;
  };
  const linked = new Set<string>();
  const hideWithLinks = (real: string) => {
    const st = hide(real);
    if (st?.isFile() && st.nlink > 1) linked.add(`${st.dev}:${st.ino}`);
  };
  for (const f of found) {
    const real = realOrUndefined(f);
    if (real !== undefined) hideWithLinks(real); // a dangling symlink shows nothing
  }
  for (const l of links) {
    const real = realOrUndefined(l);
    if (real !== undefined && matches(path.basename(real).normalize("NFC"))) hideWithLinks(real);
  }
  // a hard link is the same file under a name askFiles does not know: rare (a copy with `ln`),
  // so only then is every file of the roots looked at, .git and node_modules included
  if (linked.size > 0) for (const p of await sameFiles(roots, linked)) hide(p);
  return [...out.values()];
}

async function walk(
  roots: readonly string[],
  cache: Map<string, Listing>,
  matches: (name: string) => boolean,
  each: (dir: string, listing: Listing) => void,
): Promise<void> {
  const queue = roots.map(realOrUndefined).filter((r): r is string => r !== undefined);
  let entries = 0;
  for (let next = 0; next < queue.length; next++) {
    if (next > 0 && next % FOLDERS_PER_TURN === 0) await yieldToLoop();
    const dir = queue[next]!;
    const listing = listingOf(dir, cache, matches);
    if (listing === undefined) continue;
    entries += listing.entries;
    if (entries > SCAN_MAX_ENTRIES)
      throw new ScanTooLarge(`more than ${SCAN_MAX_ENTRIES.toLocaleString("en-US")}`);
    each(dir, listing);
    for (const sub of listing.subdirs) queue.push(path.join(dir, sub));
  }
}

function listingOf(
  dir: string,
  cache: Map<string, Listing>,
  matches: (name: string) => boolean,
): Listing | undefined {
  const s: BigIntStats | undefined = lstatSync(dir, { bigint: true, throwIfNoEntry: false });
  if (s === undefined || !s.isDirectory()) {
    cache.delete(dir);
    return undefined;
  }
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
    dirents = readdirSync(dir, { withFileTypes: true });
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
  const queue = roots.map(realOrUndefined).filter((r): r is string => r !== undefined);
  let entries = 0;
  for (let next = 0; next < queue.length; next++) {
    if (next > 0 && next % FOLDERS_PER_TURN === 0) await yieldToLoop();
    const dir = queue[next]!;
    let dirents: Dirent[];
    try {
      dirents = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries += dirents.length;
    if (entries > SCAN_MAX_ENTRIES)
      throw new ScanTooLarge(`more than ${SCAN_MAX_ENTRIES.toLocaleString("en-US")}`);
    for (const e of dirents) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) queue.push(p);
      else if (e.isFile()) {
        const st = lstatSync(p, { throwIfNoEntry: false });
        if (st !== undefined && st.nlink > 1 && linked.has(`${st.dev}:${st.ino}`)) out.push(p);
      }
    }
  }
  return out;
}

function realOrUndefined(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}
