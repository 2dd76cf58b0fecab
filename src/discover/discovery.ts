import { GLOBAL_LAYER, Registry } from "../register/index.js";
import { noProgress, type ProgressFactory } from "../util/progress.js";
import { type RootOptions, skillRoots } from "./roots.js";
import { type EntryResult, type RootState, rootView, scanEntry, scanRoot } from "./scan.js";
import type { Skill, SkillProblem, SkillRoot } from "./types.js";
import { type SkillsView, skillsView } from "./view.js";

export interface DiscoveryOptions extends RootOptions {
  /** The skill registry to register into (one provider per root); a new one by default. */
  registry?: Registry<Skill>;
  /** Layer the root providers go into. */
  layer?: string;
  /** Skill names (or `*` patterns) disabled for this directory (config `skills.disabled`). */
  disabled?: readonly string[];
  /** Progress of the first full scan, for people (silent by default). */
  progress?: ProgressFactory;
}

/** What an audit found: entries where the watched state and a fresh full scan disagree. */
export interface AuditDifference {
  root: string;
  /** The top-level entry name in the root, or "" for the root itself. */
  entry: string;
  kind: "missing" | "stale" | "extra";
}

export interface AuditReport {
  differences: AuditDifference[];
  repaired: boolean;
}

/** Which entries of which root to read again: a set of names, or "all" for the whole root. */
export type Dirty = Map<string, Set<string> | "all">;

/**
 * Skill discovery for one working directory: the roots, their scanned state, and one registry
 * provider per root. A read never rescans; refresh() (the watcher) and audit() change the state.
 */
export class SkillDiscovery {
  readonly registry: Registry<Skill>;
  readonly roots: readonly SkillRoot[];
  readonly cwd: string;
  private readonly layer: string;
  private readonly disabled: readonly string[];
  private readonly progress: ProgressFactory;
  private readonly states = new Map<string, RootState>();
  private readonly views = new Map<string, { skills: Skill[]; problems: SkillProblem[] }>();
  private readonly cache = new Map<string, { generation: number; view: SkillsView }>();
  private readonly listeners = new Set<(view: SkillsView) => void>();
  private readonly handles = new Map<string, { changed(): void; unregister(): void }>();
  private loading: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: DiscoveryOptions) {
    this.cwd = options.cwd;
    this.roots = skillRoots(options);
    this.registry = options.registry ?? new Registry<Skill>({ kind: "skill" });
    this.layer = options.layer ?? GLOBAL_LAYER;
    this.disabled = options.disabled ?? [];
    this.progress = options.progress ?? noProgress;
    for (const root of this.roots) {
      const handle = this.registry.register(this.layer, {
        name: root.provider,
        rank: root.rank,
        enumerate: async () => {
          await this.load();
          return this.rootView(root.provider).skills;
        },
      });
      this.handles.set(root.provider, handle);
    }
  }

  /** True once the first full scan has started. */
  get loaded(): boolean {
    return this.loading !== undefined;
  }

  /** The first full scan; later calls wait for the same one. */
  load(): Promise<void> {
    this.loading ??= this.scanAll().then((states) => {
      for (const [provider, state] of states) this.states.set(provider, state);
    });
    return this.loading;
  }

  /** The merged view for a scope chain: winners, shadowed, problems. Cached by chain and cwd. */
  async view(chain: readonly string[] = []): Promise<SkillsView> {
    await this.load();
    const key = `${this.cwd}\u0000${chain.join(">")}`;
    const hit = this.cache.get(key);
    if (hit && hit.generation === this.registry.generation) return hit.view;
    const generation = this.registry.generation;
    const snapshot = await this.registry.snapshot(chain);
    const problems: SkillProblem[] = [];
    const losers = new Map<string, Skill[]>();
    for (const root of this.roots) {
      const v = this.rootView(root.provider);
      problems.push(...v.problems);
      losers.set(root.provider, v.skills);
    }
    const view = skillsView(snapshot, problems, this.disabled, losers);
    if (!snapshot.incomplete && generation === this.registry.generation)
      this.cache.set(key, { generation, view });
    return view;
  }

  /** Called after every refresh or repair that changed something, once per batch. */
  onChange(listener: (view: SkillsView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads the dirty entries again (the watcher's incremental path); true if anything changed. */
  refresh(dirty: Dirty): Promise<boolean> {
    return this.serial(async () => {
      await this.load();
      const changed = new Set<string>();
      await Promise.all(
        [...dirty].map(async ([provider, names]) => {
          const root = this.roots.find((r) => r.provider === provider);
          const state = this.states.get(provider);
          if (!root || !state) return;
          if (names === "all") {
            const fresh = await scanRoot(root);
            if (!sameState(state, fresh)) {
              this.states.set(provider, fresh);
              changed.add(provider);
            }
            return;
          }
          await Promise.all(
            [...names].map(async (name) => {
              const next = await scanEntry(root, name);
              const before = state.entries.get(name);
              if (sameEntry(before, next)) return;
              if (next) state.entries.set(name, next);
              else state.entries.delete(name);
              changed.add(provider);
            }),
          );
        }),
      );
      await this.publish(changed);
      return changed.size > 0;
    });
  }

  /**
   * The cheap guard: a full rescan compared with the incremental state. Every difference is
   * reported, then repaired (the rescan replaces the state and readers are told).
   */
  audit(): Promise<AuditReport> {
    return this.serial(async () => {
      await this.load();
      const fresh = await this.scanAll();
      const differences: AuditDifference[] = [];
      const changed = new Set<string>();
      for (const root of this.roots) {
        const before = this.states.get(root.provider)!;
        const after = fresh.get(root.provider)!;
        const diffs = diffState(before, after);
        if (diffs.length === 0) continue;
        differences.push(...diffs);
        this.states.set(root.provider, after);
        changed.add(root.provider);
      }
      await this.publish(changed);
      return { differences, repaired: differences.length > 0 };
    });
  }

  /** Takes the providers out of the registry. */
  close(): void {
    for (const handle of this.handles.values()) handle.unregister();
    this.handles.clear();
    this.listeners.clear();
  }

  private rootView(provider: string): { skills: Skill[]; problems: SkillProblem[] } {
    let v = this.views.get(provider);
    if (!v) {
      const state = this.states.get(provider);
      v = state ? rootView(state) : { skills: [], problems: [] };
      this.views.set(provider, v);
    }
    return v;
  }

  private async publish(changed: Set<string>): Promise<void> {
    if (changed.size === 0) return;
    for (const provider of changed) {
      this.views.delete(provider);
      this.handles.get(provider)?.changed();
    }
    if (this.listeners.size === 0) return;
    const view = await this.view([]);
    for (const listener of [...this.listeners]) listener(view);
  }

  private async scanAll(): Promise<Map<string, RootState>> {
    const bar = this.progress("skills: scanning roots");
    const read = new Map<string, number>();
    let finished = 0;
    const show = () => {
      let entries = 0;
      for (const n of read.values()) entries += n;
      bar.update(finished, this.roots.length, `(${entries} entries)`);
    };
    try {
      const states = await Promise.all(
        this.roots.map(async (root) => {
          const state = await scanRoot(root, (n) => {
            read.set(root.provider, n);
            show();
          });
          read.set(root.provider, state.entries.size);
          finished++;
          show();
          return state;
        }),
      );
      return new Map(states.map((s) => [s.root.provider, s]));
    } finally {
      bar.done();
    }
  }

  private serial<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op, op);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function entryKey(e: EntryResult | undefined): string {
  return e === undefined ? "" : JSON.stringify(e);
}

function sameEntry(a: EntryResult | undefined, b: EntryResult | undefined): boolean {
  return entryKey(a) === entryKey(b);
}

function sameState(a: RootState, b: RootState): boolean {
  return diffState(a, b).length === 0;
}

function diffState(before: RootState, after: RootState): AuditDifference[] {
  const root = before.root.dir;
  const out: AuditDifference[] = [];
  if (JSON.stringify(before.problems) !== JSON.stringify(after.problems))
    out.push({ root, entry: "", kind: "stale" });
  for (const [name, e] of after.entries) {
    const had = before.entries.get(name);
    if (had === undefined) out.push({ root, entry: name, kind: "missing" });
    else if (!sameEntry(had, e)) out.push({ root, entry: name, kind: "stale" });
  }
  for (const name of before.entries.keys()) {
    if (!after.entries.has(name)) out.push({ root, entry: name, kind: "extra" });
  }
  return out.sort((a, b) => (a.entry < b.entry ? -1 : a.entry > b.entry ? 1 : 0));
}
