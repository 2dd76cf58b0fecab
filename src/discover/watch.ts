import {
  existsSync,
  lstatSync,
  type FSWatcher as RawWatcher,
  watch as rawWatch,
  readdirSync,
  readlinkSync,
  statSync,
} from "node:fs";
import path from "node:path";
import type { FSWatcher } from "chokidar";
import { importModule } from "../util/import-module.js";
import type { AuditReport, Dirty, SkillDiscovery } from "./discovery.js";
import { BUNDLE_FILES, isCandidateName } from "./scan.js";
import type { SkillRoot } from "./types.js";

export interface WatchOptions {
  /** Quiet time after the last event before one refresh runs (a burst makes one refresh). */
  debounceMs?: number;
  /** A refresh runs at the latest this long after the first event of a burst. */
  maxWaitMs?: number;
  /** Full-rescan audit period (config `skills.auditIntervalMs`); 0 turns the timer off. */
  auditIntervalMs?: number;
  /** Each audit that found differences (they are already repaired). */
  onAudit?: (report: AuditReport) => void;
  onError?: (error: Error) => void;
}

interface RootWatch {
  root: SkillRoot;
  /** The nearest existing strict ancestor of the root: watching it sees the root come and go. */
  base: string;
  watcher: FSWatcher;
  ready: Promise<void>;
  /**
   * A plain fs.watch on the root itself. chokidar 4 misses an entry whose kind changes in place
   * (a symlinked bundle replaced by a real directory, a link re-pointed): it reports nothing, then
   * or later. This watch sees every name that changes in the root; when an entry's kind changed,
   * the root's chokidar watcher is rebuilt.
   */
  raw?: RawWatcher;
  kinds: Map<string, string>;
  /**
   * The identity of the root directory the watchers were built on (undefined: it was absent).
   * A root deleted and made again before the events are handled looks unchanged to chokidar (the
   * base still lists it), and ext4 hands the new directory the freed inode number, so chokidar
   * keeps a dead watch on the old directory and misses everything added later.
   */
  rootId: string | undefined;
}

/**
 * Watches every root of a discovery with chokidar. Each root is watched from its nearest existing
 * parent, so a root created after start, or deleted and created again, is seen. Events map to the
 * root's top-level entry they touch; a burst is coalesced into one refresh of just those entries.
 */
export class SkillWatcher {
  private readonly watches = new Map<string, RootWatch>();
  private dirty: Dirty = new Map();
  private timer: NodeJS.Timeout | undefined;
  private firstEventAt = 0;
  private auditTimer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private closed = false;
  private lastEventAt = 0;
  private readonly debounceMs: number;
  private readonly maxWaitMs: number;

  private constructor(
    private readonly discovery: SkillDiscovery,
    private readonly options: WatchOptions,
  ) {
    this.debounceMs = options.debounceMs ?? 40;
    this.maxWaitMs = options.maxWaitMs ?? 200;
  }

  /** Starts watching; resolves once every watcher is ready and the state is current. */
  static async start(discovery: SkillDiscovery, options: WatchOptions = {}): Promise<SkillWatcher> {
    const w = new SkillWatcher(discovery, options);
    const scannedBefore = discovery.loaded;
    try {
      await Promise.all(discovery.roots.map((root) => w.watchRoot(root)));
      await discovery.load();
      // Whatever changed between an earlier scan and the watchers being ready is caught here.
      if (scannedBefore) await discovery.audit();
    } catch (error) {
      await w.close(); // the watchers already open would keep the process alive
      throw error;
    }
    const interval = options.auditIntervalMs ?? 0;
    if (interval > 0) {
      w.auditTimer = setInterval(() => {
        w.auditNow().catch((error) => w.options.onError?.(error as Error));
      }, interval);
      w.auditTimer.unref?.();
    }
    return w;
  }

  /** Runs a full-rescan audit now (after any pending refresh). */
  async auditNow(): Promise<AuditReport> {
    await this.settle();
    const report = await this.discovery.audit();
    if (report.differences.length > 0) this.options.onAudit?.(report);
    return report;
  }

  /** Resolves when no refresh or watcher rebuild is pending or running. */
  async settle(): Promise<void> {
    for (;;) {
      if (this.timer) await this.flush();
      const running = this.running;
      await running;
      // work chained on while we waited (a rebuild, its rescan) must finish too
      if (running === this.running && !this.timer && this.dirty.size === 0) return;
    }
  }

  /**
   * Resolves once nothing is pending and no file event arrived for `quietMs`: events the OS or
   * chokidar still hold show up within that window (chokidar has no idle signal of its own).
   */
  async idle(quietMs = 100): Promise<void> {
    // events for changes made just before the call may not have arrived yet: the quiet window
    // starts no earlier than the call
    const since = Date.now();
    for (;;) {
      await this.settle();
      const wait = Math.max(this.lastEventAt, since) + quietMs - Date.now();
      if (wait <= 0 && !this.timer && this.dirty.size === 0) return;
      await new Promise<void>((resolve) => setTimeout(resolve, Math.max(wait, 1)));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.auditTimer);
    this.timer = undefined;
    await this.running.catch(() => undefined);
    for (const w of this.watches.values()) w.raw?.close();
    await Promise.all([...this.watches.values()].map((w) => w.watcher.close()));
    this.watches.clear();
    await this.running.catch(() => undefined);
    clearTimeout(this.timer); // a rebuild that finished meanwhile may have marked its root
    this.timer = undefined;
    // closed fs.watch handles are released by the event loop a turn later; wait for it so a
    // caller that checks for open handles after close() finds none
    for (let i = 0; i < 2; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /**
   * Builds a root's watchers. The root's identity is taken before chokidar starts, and checked
   * again once it is ready: a root replaced in between gets its watchers built again.
   */
  private async watchRoot(root: SkillRoot): Promise<void> {
    for (;;) {
      const rootId = dirId(root.dir);
      const entry = await this.watchFrom(root, rootId);
      if (this.closed || dirId(root.dir) === rootId) {
        this.watchRaw(entry);
        return;
      }
      this.watches.delete(root.provider);
      await entry.watcher.close();
    }
  }

  private async watchFrom(root: SkillRoot, rootId: string | undefined): Promise<RootWatch> {
    const base = nearestExistingAncestor(root.dir);
    const toRoot = path.relative(base, root.dir).split(path.sep).length;
    const inRoot = (p: string) => p === root.dir || p.startsWith(root.dir + path.sep);
    const onPath = (p: string) => p === base || root.dir.startsWith(p + path.sep);
    // chokidar is loaded by the first watch: a one-shot command never pays for it
    const { watch } = await importModule<typeof import("chokidar")>("chokidar");
    const watcher = watch(base, {
      ignoreInitial: true,
      followSymlinks: true,
      // chokidar's atomic mode holds every unlink back 100 ms to pair it with an add; an entry is
      // read again on either event anyway, so the wait is pure latency
      atomic: false,
      // root's children are one level below the root, bundle files two
      depth: toRoot + 1,
      ignored: (p: string) => {
        if (onPath(p)) return false;
        if (!inRoot(p)) return true;
        const rel = path.relative(root.dir, p).split(path.sep);
        if (rel.length === 1) return !isCandidateName(rel[0]!);
        // inside a bundle only its SKILL.md matters
        return rel.length === 2 ? !BUNDLE_FILES.includes(rel[1]!) : true;
      },
    });
    const ready = new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
    const entry: RootWatch = { root, base, watcher, ready, kinds: new Map(), rootId };
    this.watches.set(root.provider, entry);
    watcher.on("all", (event, p) => this.onEvent(entry, event, p));
    watcher.on("error", (error) => this.options.onError?.(error as Error));
    await ready;
    return entry;
  }

  /** (Re)opens the plain watch on the root when the root exists; records each entry's kind. */
  private watchRaw(w: RootWatch): void {
    w.raw?.close();
    w.raw = undefined;
    w.kinds.clear();
    if (this.closed) return;
    let names: string[];
    try {
      names = readdirSync(w.root.dir);
      w.raw = rawWatch(w.root.dir, { persistent: false }, (_type, name) => {
        if (typeof name === "string") this.onRaw(w, name);
      });
      w.raw.on("error", () => {
        w.raw?.close();
        w.raw = undefined;
      });
    } catch {
      return; // no root (yet): the chokidar watch on its parent sees it arrive
    }
    for (const name of names) {
      const kind = kindOf(path.join(w.root.dir, name));
      if (kind) w.kinds.set(name, kind);
    }
  }

  private onRaw(w: RootWatch, name: string): void {
    if (this.closed || this.watches.get(w.root.provider) !== w) return;
    this.lastEventAt = Date.now();
    // an event named after the root itself (no such entry in it) is the root being removed or
    // moved away; checkRoot then sees whether another directory already took its place
    if (name === path.basename(w.root.dir) && !existsSync(path.join(w.root.dir, name))) {
      this.mark(w.root.provider, "all");
      this.checkRoot(w, true);
      return;
    }
    if (this.checkRoot(w) || !isCandidateName(name)) return;
    this.mark(w.root.provider, name);
    const before = w.kinds.get(name);
    const after = kindOf(path.join(w.root.dir, name));
    if (after) w.kinds.set(name, after);
    else w.kinds.delete(name);
    if (before !== undefined && after !== undefined && before !== after) this.rewatch(w);
  }

  /**
   * Rebuilds the root's watchers when the root now present is not the one they were built on
   * (`replaced`: the raw watch saw the old one go). True when a rebuild was started.
   */
  private checkRoot(w: RootWatch, replaced = false): boolean {
    const now = dirId(w.root.dir);
    if (now === undefined || (now === w.rootId && !replaced)) return false;
    this.rewatch(w);
    return true;
  }

  /** Rebuilds a root's chokidar watcher from scratch, then reads the whole root again. */
  private rewatch(w: RootWatch): void {
    if (this.watches.get(w.root.provider) !== w) return;
    this.watches.delete(w.root.provider);
    this.running = this.running
      .then(async () => {
        w.raw?.close();
        await w.watcher.close();
        if (this.closed) return;
        await this.watchRoot(w.root);
        this.mark(w.root.provider, "all");
      })
      .catch((error) => this.options.onError?.(error as Error));
  }

  private onEvent(w: RootWatch, event: string, p: string): void {
    if (this.closed) return;
    this.lastEventAt = Date.now();
    const { root } = w;
    const rel = path.relative(root.dir, p);
    if (rel === "" || rel.startsWith("..")) {
      // the root or one of its ancestors came or went: read the whole root, maybe move the watch
      this.mark(root.provider, "all");
      if (event === "unlinkDir" || event === "addDir") {
        if (rel === "") this.watchRaw(w);
        this.rebase(w);
      }
      if (this.watches.get(root.provider) === w) this.checkRoot(w);
    } else {
      const name = rel.split(path.sep)[0]!;
      if (isCandidateName(name)) this.mark(root.provider, name);
    }
  }

  private mark(provider: string, name: string | "all"): void {
    if (this.closed) return;
    const current = this.dirty.get(provider);
    if (name === "all") this.dirty.set(provider, "all");
    else if (current !== "all") {
      const set = current ?? new Set<string>();
      set.add(name);
      this.dirty.set(provider, set);
    }
    const now = Date.now();
    if (!this.timer) this.firstEventAt = now;
    clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.debounceMs, this.firstEventAt + this.maxWaitMs - now));
    this.timer = setTimeout(() => void this.flush(), wait);
  }

  private flush(): Promise<unknown> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const dirty = this.dirty;
    this.dirty = new Map();
    if (dirty.size === 0 || this.closed) return this.running;
    // the last chance to notice a root replaced behind a quiet watcher before it is read
    for (const provider of dirty.keys()) {
      const w = this.watches.get(provider);
      if (w) this.checkRoot(w);
    }
    this.running = this.running
      .then(() => this.discovery.refresh(dirty))
      .catch((error) => this.options.onError?.(error as Error));
    return this.running;
  }

  /** The watched ancestor was removed, or a nearer one appeared: watch from the right place. */
  private rebase(w: RootWatch): void {
    // a watch from a nearer base is not needed (chokidar follows new subdirectories); only a
    // base that is gone leaves the root unwatched
    if (existsSync(w.base) || this.closed) return;
    this.rewatch(w);
  }
}

/** A directory's identity: inode plus birth time, since a freed inode number is reused at once. */
function dirId(dir: string): string | undefined {
  try {
    const s = statSync(dir, { bigint: true });
    return s.isDirectory() ? `${s.dev}:${s.ino}:${s.birthtimeNs}` : undefined;
  } catch {
    return undefined;
  }
}

function nearestExistingAncestor(dir: string): string {
  let d = path.dirname(dir);
  while (!existsSync(d)) {
    const parent = path.dirname(d);
    if (parent === d) return d;
    d = parent;
  }
  return d;
}

/** An entry's kind as far as watching goes: a link counts with its target. */
function kindOf(full: string): string | undefined {
  try {
    const s = lstatSync(full);
    if (s.isSymbolicLink()) return `link:${readlinkSync(full)}`;
    // a directory made again under the same name is a new inode chokidar has no watch on; a
    // file needs no such care (the plain watch on the root sees its changes)
    return s.isDirectory() ? `dir:${s.ino}` : "file";
  } catch {
    return undefined;
  }
}
