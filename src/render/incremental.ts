// Re-rendering a catalog that differs from the last one in a few tools: only those are rendered again.
import type { ToolProjection } from "../declare/project.js";
import { adapterFor } from "./adapters.js";
import {
  conversionsOf,
  cutList,
  frozenInput,
  type RenderInput,
  renderFull,
  renderOne,
  type State,
} from "./catalog.js";
import { sameList } from "./catalog-parts.js";
import { sameInstructions } from "./instructions.js";
import { RenderMemo } from "./memo.js";
import { patchTail, sameNativeFrame } from "./tail-patch.js";
import type { Catalog, CatalogTool, NativeDeferral } from "./types.js";
import { joinParts, listingPart, listingStill, stablePart } from "./volatile.js";

/**
 * Renders a stream of catalogs for one consumer. After one full render, a re-render whose input
 * differs only in a few tools (same positions and names, same skills, deferred names and budget
 * settings, and a water-filling cap that does not move) renders only the changed tools and
 * reuses the rest by position; anything else falls back to a full render. The output is
 * byte-for-byte what `renderCatalog` gives for the same input.
 */
export class CatalogRenderer {
  private state: State | undefined;
  readonly memo: RenderMemo;

  constructor(memo = new RenderMemo()) {
    this.memo = memo;
  }

  /** The listing's renderer and last input, under `volatile: "attachments"` (see volatile.ts). */
  private listing: { renderer: CatalogRenderer; input: RenderInput; catalog: Catalog } | undefined;

  render(input: RenderInput): Catalog {
    const withMemo = { ...input, memo: input.memo ?? this.memo };
    if (input.volatile !== "attachments") return this.renderPart(withMemo);
    const stable = this.renderPart(stablePart(withMemo));
    const wanted = listingPart(withMemo, stable);
    const last = this.listing;
    if (last && listingStill(last.input, last.catalog, wanted))
      return joinParts(withMemo, stable, last.catalog);
    const renderer = last?.renderer ?? new CatalogRenderer(this.memo);
    const catalog = renderer.render(wanted);
    this.listing = { renderer, input: frozenInput(wanted), catalog };
    return joinParts(withMemo, stable, catalog);
  }

  private renderPart(withMemo: RenderInput): Catalog {
    const quick = this.state ? incremental(this.state, withMemo) : undefined;
    if (quick) {
      this.state = quick;
      return quick.catalog;
    }
    const full = renderFull(withMemo);
    this.state = full.state;
    return full.catalog;
  }
}

const MAX_CHANGED = 64;

function incremental(prev: State, input: RenderInput): State | undefined {
  const p = prev.input;
  if (
    input.provider !== p.provider ||
    input.memo !== p.memo ||
    input.incomplete !== p.incomplete ||
    !sameBudget(input, p) ||
    !sameList(input.skills, p.skills) ||
    !sameList(input.deferred, p.deferred) ||
    !sameList(input.attachments, p.attachments) ||
    !sameInstructions(input.instructions, p.instructions) ||
    input.tools.length !== p.tools.length ||
    prev.catalog.report.omitted.length > 0
  )
    return undefined;
  // the native deferral tail: the last one, or the last with changed deferred tools re-rendered
  const tail = sameNative(input.native, p.native) ? prev.tail : patchTail(prev, input, MAX_CHANGED);
  if (tail === undefined) return undefined;
  const changed: number[] = [];
  const now = input.tools;
  const was = p.tools;
  for (let i = 0, n = now.length; i < n; i++) {
    if (now[i] !== was[i]) {
      if (now[i]!.name !== was[i]!.name || changed.length >= MAX_CHANGED) return undefined;
      changed.push(i);
    }
  }
  const limit = input.budget?.chars ?? input.budgetChars ?? 8000;
  // the cap must not move, or every cut description would change: water-filling would pick the
  // same cap exactly when it still fits and one more character does not. Its totals move by the
  // changed entries only, so this check costs O(changed), not O(tools).
  const c = prev.fitCap;
  const lengths = changed.map((i) => Math.min(input.tools[i]!.description.length, prev.maxChars));
  let totalAtCap = prev.totalAtCap;
  let totalPastCap = prev.totalPastCap;
  changed.forEach((i, k) => {
    const was = prev.lengths[i]!;
    const now = lengths[k]!;
    totalAtCap += Math.min(now, c) - Math.min(was, c);
    totalPastCap += Math.min(now, c + 1) - Math.min(was, c + 1);
  });
  const available = limit - prev.fixedChars;
  if (totalAtCap > available) return undefined;
  if (c !== Number.POSITIVE_INFINITY && totalPastCap <= available) return undefined;

  const adapter = adapterFor(input.provider);
  const memo = input.memo!;
  // render every changed tool before touching the state, so a throw leaves it as it was
  const rendered = changed.map((i) =>
    renderOne(memo, adapter, input.tools[i]!, prev.renamed[i] ?? p.tools[i]!.name, prev.cap, prev.maxChars),
  );
  const wires = prev.wires.slice();
  const notes = prev.notes.slice();
  let chars = prev.chars;
  changed.forEach((i, k) => {
    const one = rendered[k]!;
    chars += one.keptLength - (prev.cuts[i]?.kept ?? p.tools[i]!.description.length);
    wires[i] = one.wire;
    notes[i] = one.notes;
    prev.hasher.digests.write(one.digest, 32 * i, 32, "latin1");
    prev.cuts[i] = one.cut;
    prev.lengths[i] = lengths[k]!;
    (p.tools as ToolProjection[])[i] = input.tools[i]!;
  });
  // changed is in position order: hash again from the first
  if (changed.length > 0) prev.hasher.changedFrom(changed[0]!);
  const old = prev.catalog;
  const cut = cutList(prev.cuts, prev.skillCuts, tail.cuts);
  const catalog: Catalog = {
    ...old,
    tools: (tail.wires.length > 0 ? wires.concat(tail.wires) : wires) as CatalogTool[],
    budget: {
      ...old.budget,
      used: chars,
      chars: { limit, used: chars },
      truncated: cut.length > 0 || old.report.omitted.length > 0,
    },
    prefixHash: prev.hasher.hex(prev.systemDigest),
    attachments: [...(input.attachments ?? [])],
    report: { ...old.report, conversions: conversionsOf(p.tools, notes, tail), cut },
  };
  // the lists compared equal, so the state keeps its own copies of them; only the tools moved
  const next: RenderInput = {
    ...input,
    tools: p.tools,
    skills: p.skills,
    deferred: p.deferred,
    attachments: p.attachments,
    instructions: p.instructions,
    native: tail === prev.tail ? p.native : { ...input.native!, tools: tail.tools },
  };
  return { ...prev, input: next, totalAtCap, totalPastCap, wires, notes, chars, catalog, tail };
}

function sameNative(a: NativeDeferral | undefined, b: NativeDeferral | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return sameList(a.tools, b.tools) && sameNativeFrame(a, b);
}

function sameBudget(a: RenderInput, b: RenderInput): boolean {
  const x = a.budget ?? { chars: a.budgetChars ?? 8000 };
  const y = b.budget ?? { chars: b.budgetChars ?? 8000 };
  return (
    x.chars === y.chars &&
    (x.tokens ?? null) === (y.tokens ?? null) &&
    x.descriptionMaxChars === y.descriptionMaxChars
  );
}
