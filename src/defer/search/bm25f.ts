import { FIELDS, fieldTexts, fingerprint, type SearchEntry } from "./entry.js";
import { terms } from "./tokenize.js";

// Hand-written BM25F rather than minisearch: minisearch scores each field with its own BM25 and
// sums them (so a word in name and description counts twice and saturates per field), has no
// query-side normalisation to a fixed scale, and re-tokenises on every update. BM25F (Robertson,
// Zaragoza) pools field-weighted term frequencies before saturation, which is what lets a short
// identifier outweigh a long description; and the score bound it implies gives the normalised
// confidence the "nothing fits" threshold needs. It is one small file with incremental updates.

export interface Bm25fOptions {
  /** Term-frequency saturation. */
  k1: number;
  /** Per-field weight, in FIELDS order. */
  weights: readonly number[];
  /** Per-field length normalisation strength (BM25 b), in FIELDS order. */
  b: readonly number[];
  /** Rerank weight of the share of a tool's own words (see `paramCoverage`) the query covers. */
  coverage: number;
  /**
   * Weight of parameter-only words in that share, against 1 for name and description words.
   * Parameters say what a tool needs, which is part of what it is about, but their wording is
   * generic ("the id of ..."), so they count for less; at 0 a query that matches a tool only
   * through its parameters would get coverage, and so confidence, 0.
   */
  paramCoverage: number;
  /** How many raw-ranked candidates the rerank looks at. */
  rerankDepth: number;
}

export const DEFAULT_BM25F: Bm25fOptions = {
  k1: 1.2,
  weights: [3, 1.5, 0.7, 0.5],
  b: [0.3, 0.75, 0.75, 0.3],
  coverage: 0.5,
  paramCoverage: 0.3,
  rerankDepth: 50,
};

/** See idf(). */
export const IDF_FLOOR_DOCS = 1000;

/**
 * How many times the query's own idf weight a tool's words may outweigh it before the fit stops
 * counting them. Chosen on the BFCL development pool (bench/search.ts): 2.5 keeps its fit/no-fit
 * AUROC (0.849, against 0.852 with whole-tool coverage) while obvious short queries against the
 * long built-in descriptions fit (0.44-0.53, from 0.16-0.29).
 */
export const FIT_QUERY_SPAN = 2.5;

interface Doc {
  name: string;
  fingerprint: string;
  /** term -> frequency per field */
  tf: Map<string, number[]>;
  lengths: number[];
  /** Distinct words of the name, description and parameters: what the tool is about. */
  own: string[];
  /** Coverage weight of each `own` word: 1 in name or description, else `paramCoverage`. */
  ownWeight: number[];
  /** Name and the rest of the searchable text, for regex mode. */
  text: string;
}

/** Fields per posting row; the typed tables below hold FIELDS.length numbers per doc or posting. */
const NF = FIELDS.length;

/**
 * One term's postings as growable typed arrays: a query scans flat numbers instead of one object
 * per posting, which keeps the scan tight and leaves the garbage collector ~300,000 fewer objects
 * to trace in a 10,000-tool index (GC pauses were what set the query p99).
 */
class PostingList {
  ids = new Int32Array(4);
  /** Frequency per field, NF numbers per posting. */
  tf = new Float64Array(4 * NF);
  /** Saturated pooled frequency per posting, valid while `epoch` equals the index's norm epoch. */
  sat = new Float64Array(4);
  size = 0;
  epoch = -1;

  push(id: number, row: readonly number[]): void {
    if (this.size === this.ids.length) {
      const cap = this.size * 2;
      this.ids = grow(this.ids, cap);
      this.tf = grow(this.tf, cap * NF);
      this.sat = grow(this.sat, cap);
    }
    this.ids[this.size] = id;
    this.tf.set(row, this.size * NF);
    this.size++;
    // The new posting has no saturated weight yet: the next query that reads the list redoes it.
    this.epoch = -1;
  }

  /** Swap-removes `id`'s posting; the order of postings never affects a score. */
  delete(id: number): void {
    const slot = this.ids.subarray(0, this.size).indexOf(id);
    if (slot < 0) return;
    const last = --this.size;
    if (slot !== last) {
      this.ids[slot] = this.ids[last]!;
      this.sat[slot] = this.sat[last]!;
      this.tf.copyWithin(slot * NF, last * NF, last * NF + NF);
    }
  }
}

function grow<T extends Int32Array | Float64Array>(a: T, cap: number): T {
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}

export interface Hit {
  name: string;
  /** Raw BM25F score. */
  raw: number;
  /**
   * Confidence in [0, 1), comparable across catalogs: high when the query matches rare words of
   * the tool and explains most of what the tool is about (name and description, and its
   * parameters at `paramCoverage` weight).
   */
  score: number;
}

export interface SyncReport {
  added: string[];
  changed: string[];
  removed: string[];
}

/** An incremental BM25F index over tool search entries. */
export class Bm25fIndex {
  private readonly opts: Bm25fOptions;
  private readonly docs = new Map<number, Doc>();
  private readonly ids = new Map<string, number>();
  /** term -> its postings; a posting carries its row, so scoring needs no lookups. */
  private readonly postings = new Map<string, PostingList>();
  /** Field lengths per doc id, NF numbers each (ids are never reused, so rows never move). */
  private docLengths = new Float64Array(1024 * NF);
  private readonly lengthSums = FIELDS.map(() => 0);
  private nextId = 0;
  /** Length-norm key of the cached posting weights, and its epoch number. */
  private normKey = "";
  private epoch = 0;
  /** Reused score accumulator (zeroed after each query) and list of the ids a query touched. */
  private acc = new Float64Array(0);
  private touched = new Int32Array(0);

  constructor(opts: Partial<Bm25fOptions> = {}) {
    this.opts = { ...DEFAULT_BM25F, ...opts };
  }

  get size(): number {
    return this.docs.size;
  }

  has(name: string): boolean {
    return this.ids.has(name);
  }

  names(): string[] {
    return [...this.ids.keys()];
  }

  /** Adds or replaces one entry; an unchanged entry costs one string comparison. True if re-indexed. */
  upsert(entry: SearchEntry): boolean {
    const fp = fingerprint(entry);
    const id = this.ids.get(entry.name);
    if (id !== undefined) {
      if (this.docs.get(id)?.fingerprint === fp) return false;
      this.remove(entry.name);
    }
    const texts = fieldTexts(entry);
    const tf = new Map<string, number[]>();
    const lengths = FIELDS.map(() => 0);
    texts.forEach((text, f) => {
      const ts = terms(text);
      lengths[f] = ts.length;
      for (const t of ts) {
        let row = tf.get(t);
        if (!row) {
          row = FIELDS.map(() => 0);
          tf.set(t, row);
        }
        row[f]! += 1;
      }
    });
    // What the tool is about: its name, description and parameter words (not the namespace,
    // which every tool of a server shares and so says nothing about one of them).
    const own: string[] = [];
    const ownWeight: number[] = [];
    for (const [t, row] of tf) {
      if (row[0]! + row[1]! > 0) ownWeight.push(1);
      else if (row[2]! > 0) ownWeight.push(this.opts.paramCoverage);
      else continue;
      own.push(t);
    }
    const newId = this.nextId++;
    this.docs.set(newId, {
      name: entry.name,
      fingerprint: fp,
      tf,
      lengths,
      own,
      ownWeight,
      text: texts.slice(1).join("\n"),
    });
    this.ids.set(entry.name, newId);
    if (this.docLengths.length < (newId + 1) * NF)
      this.docLengths = grow(this.docLengths, (newId + 1) * NF * 2);
    this.docLengths.set(lengths, newId * NF);
    for (const [t, row] of tf) {
      let list = this.postings.get(t);
      if (!list) {
        list = new PostingList();
        this.postings.set(t, list);
      }
      list.push(newId, row);
    }
    lengths.forEach((l, f) => {
      this.lengthSums[f]! += l;
    });
    return true;
  }

  remove(name: string): boolean {
    const id = this.ids.get(name);
    if (id === undefined) return false;
    const doc = this.docs.get(id)!;
    for (const t of doc.tf.keys()) {
      const list = this.postings.get(t)!;
      list.delete(id);
      if (list.size === 0) this.postings.delete(t);
    }
    doc.lengths.forEach((l, f) => {
      this.lengthSums[f]! -= l;
    });
    this.docs.delete(id);
    this.ids.delete(name);
    return true;
  }

  /** Makes the index hold exactly `entries`, re-indexing only the ones whose text changed. */
  sync(entries: Iterable<SearchEntry>): SyncReport {
    const report: SyncReport = { added: [], changed: [], removed: [] };
    const seen = new Set<string>();
    for (const entry of entries) {
      seen.add(entry.name);
      const existed = this.ids.has(entry.name);
      if (this.upsert(entry)) (existed ? report.changed : report.added).push(entry.name);
    }
    for (const name of [...this.ids.keys()]) {
      if (!seen.has(name)) {
        this.remove(name);
        report.removed.push(name);
      }
    }
    return report;
  }

  /**
   * BM25 idf with the collection size floored at IDF_FLOOR_DOCS: in a catalog of three tools a
   * word in one of them is still a rare, telling word, and without the floor every idf in a tiny
   * catalog is near zero, so no fixed "nothing fits" threshold could hold for small and large
   * catalogs alike. Above the floor this is the plain BM25 idf.
   */
  idf(term: string): number {
    const n = Math.max(this.docs.size, IDF_FLOOR_DOCS);
    const df = this.postings.get(term)?.size ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /**
   * Ranks entries for a query. `filter` restricts the candidates (e.g. to deferred tools).
   * Ties break by name so the same inputs give the same order.
   */
  search(query: string, limit: number, filter?: (name: string) => boolean): Hit[] {
    const qterms = [...new Set(terms(query))];
    const n = this.docs.size;
    if (n === 0 || qterms.length === 0) return [];
    // Average field lengths, quantised to 1/16 of an octave (~4%): scores depend only on the
    // current content (deterministic), yet a posting's saturated weight is computed once and
    // reused until the averages move a step, so a query costs one multiply-add per posting.
    const avg = this.lengthSums.map((s) => (s > 0 ? 2 ** (Math.round(Math.log2(s / n) * 16) / 16) : 1));
    const key = avg.join(",");
    if (key !== this.normKey) {
      this.normKey = key;
      this.epoch++;
    }
    const epoch = this.epoch;
    if (this.acc.length < this.nextId) this.acc = new Float64Array(Math.max(1024, this.nextId * 2));
    const acc = this.acc;
    if (this.touched.length < this.nextId) this.touched = new Int32Array(this.acc.length);
    const touched = this.touched;
    let nTouched = 0;
    for (const t of qterms) {
      const list = this.postings.get(t);
      if (!list) continue;
      if (list.epoch !== epoch) this.saturate(list, avg);
      const idf = this.idf(t);
      const { ids, sat, size } = list;
      for (let i = 0; i < size; i++) {
        const id = ids[i]!;
        if (acc[id] === 0) touched[nTouched++] = id;
        acc[id]! += idf * sat[i]!;
      }
    }
    // Keep the best `depth` by raw score (ties by name) without sorting every candidate.
    const depth = Math.max(limit, this.opts.rerankDepth);
    const byScore = (x: { raw: number; name: string }, y: { raw: number; name: string }) =>
      y.raw - x.raw || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0);
    const ranked: { id: number; name: string; raw: number }[] = [];
    for (let i = 0; i < nTouched; i++) {
      const id = touched[i]!;
      const raw = acc[id]!;
      if (ranked.length >= depth && raw < ranked[ranked.length - 1]!.raw) continue;
      const name = this.docs.get(id)!.name;
      if (filter && !filter(name)) continue;
      const item = { id, name, raw };
      let at = ranked.length;
      while (at > 0 && byScore(item, ranked[at - 1]!) < 0) at--;
      ranked.splice(at, 0, item);
      if (ranked.length > depth) ranked.pop();
    }
    for (let i = 0; i < nTouched; i++) acc[touched[i]!] = 0;
    const qset = new Set(qterms);
    let qmass = 0;
    for (const t of qterms) qmass += this.idf(t);
    const top = ranked.map((r) => {
      const doc = this.docs.get(r.id)!;
      let mass = 0;
      let hit = 0;
      for (let i = 0; i < doc.own.length; i++) {
        const t = doc.own[i]!;
        const w = this.idf(t) * doc.ownWeight[i]!;
        mass += w;
        if (qset.has(t)) hit += w;
      }
      const cov = mass > 0 ? hit / mass : 0;
      // A matched word is worth about ln(N) at most, so raw / ln(1 + N) counts "rare words matched"
      // on the same scale in any catalog; squashed to [0, 1) and joined with coverage (how much
      // of the tool the query explains), one threshold separates "fits" from "nothing fits".
      // The fit's coverage is over at most FIT_QUERY_SPAN times the query's own weight: a short
      // query cannot name every word of a long description ("find files by name" against glob's
      // 40 words had 0.25), while a long query still has to cover a short tool.
      const matched = r.raw / Math.log(1 + Math.max(n, IDF_FLOOR_DOCS));
      const span = Math.min(mass, FIT_QUERY_SPAN * qmass);
      const fitCov = span > 0 ? Math.min(1, hit / span) : 0;
      const score = Math.sqrt(fitCov * (matched / (1 + matched)));
      return { name: r.name, raw: r.raw * (1 + this.opts.coverage * cov), score };
    });
    top.sort(byScore);
    return top.slice(0, limit);
  }

  /** Recomputes a list's saturated weights for the current average field lengths. */
  private saturate(list: PostingList, avg: readonly number[]): void {
    const { k1, weights, b } = this.opts;
    const { ids, tf, sat, size } = list;
    const lengths = this.docLengths;
    for (let i = 0; i < size; i++) {
      const row = i * NF;
      const len = ids[i]! * NF;
      let pooled = 0;
      for (let f = 0; f < NF; f++) {
        const c = tf[row + f]!;
        if (c !== 0) pooled += (weights[f]! * c) / (1 - b[f]! + (b[f]! * lengths[len + f]!) / avg[f]!);
      }
      sat[i] = pooled / (k1 + pooled);
    }
    list.epoch = this.epoch;
  }

  /**
   * Regex mode, like Anthropic's regex tool search: `pattern` is tested against each name and
   * its text (description, parameters). Name matches rank first (score 1, else 0.5), then by name.
   */
  searchRegex(pattern: RegExp, limit: number, filter?: (name: string) => boolean): Hit[] {
    const hits: Hit[] = [];
    for (const doc of this.docs.values()) {
      if (filter && !filter(doc.name)) continue;
      pattern.lastIndex = 0;
      const inName = pattern.test(doc.name);
      pattern.lastIndex = 0;
      if (inName || pattern.test(doc.text))
        hits.push({ name: doc.name, raw: inName ? 1 : 0.5, score: inName ? 1 : 0.5 });
    }
    hits.sort((x, y) => y.raw - x.raw || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    return hits.slice(0, limit);
  }
}
